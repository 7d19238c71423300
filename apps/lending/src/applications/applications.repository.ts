import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { TenantScopedRepository } from '@platform/persistence';
import type { OrganizationId } from '@platform/tenancy';
import { LoanApplication } from './application.entity';

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
  ): Promise<[LoanApplication[], number]> {
    return this.page(organizationId, {}, { order: { createdAt: 'DESC', id: 'ASC' }, offset, limit });
  }
}
