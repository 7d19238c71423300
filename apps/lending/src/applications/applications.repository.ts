import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { TenantScopedRepository, type Tx } from '@platform/persistence';
import type { OrganizationId } from '@platform/tenancy';
import { LoanApplication } from './application.entity';

/** Applications, always inside a TenantData transaction (row-level security on top of the filter). */
@Injectable()
export class ApplicationsRepository extends TenantScopedRepository<LoanApplication, 'organizationId'> {
  constructor(@InjectDataSource() ds: DataSource) {
    super(ds, LoanApplication, 'organizationId');
  }

  /** Newest first; the id breaks ties so pages never overlap. */
  pageOf(
    organizationId: OrganizationId,
    offset: number,
    limit: number,
    tx: Tx,
  ): Promise<[LoanApplication[], number]> {
    return this.page(organizationId, {}, { order: { createdAt: 'DESC', id: 'ASC' }, offset, limit }, tx);
  }
}
