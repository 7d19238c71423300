import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { TenantScopedRepository, type Tx } from '@platform/persistence';
import type { OrganizationId } from '@platform/tenancy';
import { CaseSummary } from './case-summary.entity';
import type { SummaryView } from './summary-types';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export const summaryView = (s: CaseSummary): SummaryView => ({
  id: s.id,
  caseId: s.caseId,
  version: s.version,
  generatedAt: s.generatedAt.toISOString(),
  identityMatch: s.identityMatch,
  authenticity: s.authenticity,
  flags: s.flags ?? [],
  recommendation: s.recommendation,
  rulesVersion: s.rulesVersion,
});

/**
 * The stored summaries (docs/verification/summary.md). Versions are numbered per case under the case's
 * row lock (CaseMoves.lock), so two generations of one case never race for a number; the unique
 * (case_id, version) index is the final guard.
 */
@Injectable()
export class SummariesRepository extends TenantScopedRepository<CaseSummary, 'organizationId'> {
  constructor(@InjectDataSource() ds: DataSource) {
    super(ds, CaseSummary, 'organizationId');
  }

  /** The case's newest summary, or null when none was generated. */
  async latest(organizationId: OrganizationId, caseId: string, tx?: Tx): Promise<SummaryView | null> {
    if (!UUID.test(caseId)) return null;
    const row = await this.select(
      organizationId,
      's',
      (q) => q.andWhere('s.case_id = :caseId', { caseId }).orderBy('s.version', 'DESC').limit(1).getOne(),
      tx,
    );
    return row ? summaryView(row) : null;
  }

  /** One summary by its id, or null (also for another organization's id). */
  async get(organizationId: OrganizationId, summaryId: string, tx?: Tx): Promise<SummaryView | null> {
    if (!UUID.test(summaryId)) return null;
    const row = await this.findOne(organizationId, { id: summaryId }, tx);
    return row ? summaryView(row) : null;
  }

  /** Every version of the case's summary, newest first. */
  async versions(organizationId: OrganizationId, caseId: string, tx?: Tx): Promise<SummaryView[]> {
    const rows = await this.find(organizationId, { caseId }, { version: 'DESC' }, tx);
    return rows.map(summaryView);
  }

  /** Stores the next version of the case's summary (the case must be locked in `tx`). */
  async append(
    organizationId: OrganizationId,
    row: Omit<CaseSummary, 'organizationId' | 'id' | 'version'>,
    tx: Tx,
  ): Promise<SummaryView> {
    const last = await this.select(
      organizationId,
      's',
      (q) =>
        q
          .andWhere('s.case_id = :caseId', { caseId: row.caseId })
          .orderBy('s.version', 'DESC')
          .limit(1)
          .getOne(),
      tx,
    );
    const version = (last?.version ?? 0) + 1;
    const [created] = await this.insertReturning(organizationId, [{ ...row, version }], tx);
    return summaryView({ ...row, id: created.id, version, organizationId });
  }
}
