import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { TenantScopedRepository, type Tx } from '@platform/persistence';
import type { OrganizationId } from '@platform/tenancy';
import { ProviderSession } from './provider-session.entity';

@Injectable()
export class ProviderSessionsRepository extends TenantScopedRepository<ProviderSession, 'organizationId'> {
  constructor(@InjectDataSource() ds: DataSource) {
    super(ds, ProviderSession, 'organizationId');
  }

  async create(
    organizationId: OrganizationId,
    row: Omit<ProviderSession, 'organizationId' | 'id'>,
    tx: Tx,
  ): Promise<string> {
    const [created] = await this.insertReturning(organizationId, [row], tx);
    return created.id;
  }

  async finish(
    organizationId: OrganizationId,
    id: string,
    set: Pick<ProviderSession, 'status' | 'result' | 'breakdown' | 'completedAt'>,
    tx: Tx,
  ): Promise<void> {
    await this.update(organizationId, { id }, set as never, tx);
  }

  get(organizationId: OrganizationId, id: string, tx?: Tx): Promise<ProviderSession | null> {
    return this.findOne(organizationId, { id }, tx);
  }

  /** The case's sessions, oldest first. */
  ofCase(organizationId: OrganizationId, caseId: string): Promise<ProviderSession[]> {
    return this.find(organizationId, { caseId }, { createdAt: 'ASC', id: 'ASC' });
  }
}
