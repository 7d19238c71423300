import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, IsNull } from 'typeorm';
import { TenantScopedRepository, type Tx } from '@platform/persistence';
import type { OrganizationId } from '@platform/tenancy';
import { CaseUploadToken } from './case-upload-token.entity';

@Injectable()
export class CaseUploadTokensRepository extends TenantScopedRepository<CaseUploadToken, 'organizationId'> {
  constructor(@InjectDataSource() ds: DataSource) {
    super(ds, CaseUploadToken, 'organizationId');
  }

  async add(organizationId: OrganizationId, row: Omit<CaseUploadToken, 'organizationId' | 'usedAt'>, tx: Tx) {
    await this.insert(organizationId, [row], tx);
  }

  of(organizationId: OrganizationId, caseId: string): Promise<CaseUploadToken[]> {
    return this.find(organizationId, { caseId }, { createdAt: 'ASC' });
  }

  /** Marks every unused token of the case used at `at` (single use per case); returns how many. */
  useAll(organizationId: OrganizationId, caseId: string, at: Date, tx: Tx): Promise<number> {
    return this.update(organizationId, { caseId, usedAt: IsNull() }, { usedAt: at }, tx);
  }
}
