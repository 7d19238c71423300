import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, IsNull } from 'typeorm';
import { TenantScopedRepository, txManager, type Tx } from '@platform/persistence';
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

  /**
   * The borrower portal's lookup, unscoped by design: the token is the credential and its row names
   * the organization and case it belongs to (the primary key is the hash, so this is one index probe).
   */
  byHash(tokenHash: string): Promise<CaseUploadToken | null> {
    return this.ds.getRepository(CaseUploadToken).findOneBy({ tokenHash });
  }

  /** `byHash`, the row locked until `tx` ends: a finish and an upload with one token run one at a time. */
  lockByHash(tokenHash: string, tx: Tx): Promise<CaseUploadToken | null> {
    return txManager(tx)
      .getRepository(CaseUploadToken)
      .findOne({ where: { tokenHash }, lock: { mode: 'pessimistic_write' } });
  }

  /** Marks every unused token of the case used at `at` (single use per case); returns how many. */
  useAll(organizationId: OrganizationId, caseId: string, at: Date, tx: Tx): Promise<number> {
    return this.update(organizationId, { caseId, usedAt: IsNull() }, { usedAt: at }, tx);
  }
}
