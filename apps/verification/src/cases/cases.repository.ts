import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { TenantScopedRepository } from '@platform/persistence';
import type { OrganizationId } from '@platform/tenancy';
import { VerificationCase } from './verification-case.entity';

@Injectable()
export class CasesRepository extends TenantScopedRepository<VerificationCase, 'organizationId'> {
  constructor(@InjectDataSource() ds: DataSource) {
    super(ds, VerificationCase, 'organizationId');
  }

  /** Newest first, optionally one external reference; the id breaks ties so pages never overlap. */
  pageOf(
    organizationId: OrganizationId,
    filter: { externalReferenceId?: string },
    offset: number,
    limit: number,
  ): Promise<[VerificationCase[], number]> {
    return this.page(
      organizationId,
      filter.externalReferenceId ? { externalReferenceId: filter.externalReferenceId } : {},
      { order: { createdAt: 'DESC', id: 'ASC' }, offset, limit },
    );
  }
}
