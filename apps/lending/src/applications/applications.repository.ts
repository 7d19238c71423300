import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { TenantScopedRepository, type Tx } from '@platform/persistence';
import type { OrganizationId } from '@platform/tenancy';
import { LoanApplication } from './application.entity';

export type NewApplication = Omit<LoanApplication, 'id' | 'organizationId' | 'createdAt' | 'updatedAt'>;
export type ApplicationChange = Partial<Omit<NewApplication, 'createdByKeyId'>>;

/** Applications, always inside a TenantData transaction (row-level security on top of the filter). */
@Injectable()
export class ApplicationsRepository extends TenantScopedRepository<LoanApplication, 'organizationId'> {
  constructor(@InjectDataSource() ds: DataSource) {
    super(ds, LoanApplication, 'organizationId');
  }

  /** Newest first; the id breaks ties so pages never overlap. */
  pageOf(
    organizationId: OrganizationId,
    filter: { status?: string; customerId?: string },
    offset: number,
    limit: number,
    tx: Tx,
  ): Promise<[LoanApplication[], number]> {
    const where = {
      ...(filter.status ? { status: filter.status } : {}),
      ...(filter.customerId ? { customerId: filter.customerId } : {}),
    };
    return this.page(organizationId, where, { order: { createdAt: 'DESC', id: 'ASC' }, offset, limit }, tx);
  }

  byId(organizationId: OrganizationId, id: string, tx: Tx): Promise<LoanApplication | null> {
    return this.findOne(organizationId, { id }, tx);
  }

  /**
   * The application, locked until the transaction ends: every move reads and changes the status
   * under this lock, so two concurrent moves serialise and the second sees the first's result.
   */
  lock(organizationId: OrganizationId, id: string, tx: Tx): Promise<LoanApplication | null> {
    return this.select(
      organizationId,
      'a',
      (q) => q.andWhere('a.id = :id', { id }).setLock('pessimistic_write').getOne(),
      tx,
    );
  }

  async create(organizationId: OrganizationId, row: NewApplication, tx: Tx): Promise<string> {
    const [created] = await this.insertReturning(organizationId, [row], tx);
    return created.id;
  }

  async change(organizationId: OrganizationId, id: string, set: ApplicationChange, tx: Tx): Promise<void> {
    await this.update(organizationId, { id }, { ...set, updatedAt: () => 'now()' }, tx);
  }
}
