import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { TenantScopedRepository, type Tx } from '@platform/persistence';
import type { OrganizationId } from '@platform/tenancy';
import { ExternalCall } from './external-call.entity';

export type NewExternalCall = Omit<ExternalCall, 'id' | 'organizationId' | 'createdAt'>;

/** The external-call log (append-only: the tenant role has no UPDATE or DELETE on it). */
@Injectable()
export class ExternalCallsRepository extends TenantScopedRepository<ExternalCall, 'organizationId'> {
  constructor(@InjectDataSource() ds: DataSource) {
    super(ds, ExternalCall, 'organizationId');
  }

  async add(organizationId: OrganizationId, row: NewExternalCall, tx: Tx): Promise<void> {
    await this.insert(organizationId, [row as never], tx);
  }

  /** Oldest first: each call is logged in its own transaction right after it, so this is call order. */
  pageOf(
    organizationId: OrganizationId,
    filter: { applicationId?: string },
    offset: number,
    limit: number,
    tx: Tx,
  ): Promise<[ExternalCall[], number]> {
    const where = filter.applicationId ? { applicationId: filter.applicationId } : {};
    return this.page(organizationId, where, { order: { createdAt: 'ASC', id: 'ASC' }, offset, limit }, tx);
  }
}
