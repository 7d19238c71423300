import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { OrganizationId } from '@platform/tenancy';
import type { ReportSummary } from './report-content';

interface SummaryRow {
  id: string;
  case_id: string;
  version: number;
  generated_at: Date;
  identity_match: ReportSummary['identityMatch'];
  authenticity: ReportSummary['authenticity'];
  flags: ReportSummary['flags'];
  recommendation: ReportSummary['recommendation'];
  rules_version: string;
}

/**
 * The latest summary of a case, read from `verification.case_summaries` (the summary area's table).
 * Interim: it stands in for that area's SummariesRepository until it is wired here.
 */
@Injectable()
export class ReportSummariesRepository {
  constructor(@InjectDataSource() private readonly ds: DataSource) {}

  async latest(organizationId: OrganizationId, caseId: string): Promise<ReportSummary | null> {
    const [exists] = (await this.ds.query(
      `SELECT to_regclass('verification.case_summaries') IS NOT NULL AS ok`,
    )) as {
      ok: boolean;
    }[];
    if (!exists?.ok) return null;
    const rows = (await this.ds.query(
      `SELECT id, case_id, version, generated_at, identity_match, authenticity, flags, recommendation, rules_version
         FROM verification.case_summaries
        WHERE organization_id = $1 AND case_id = $2
        ORDER BY version DESC LIMIT 1`,
      [organizationId, caseId],
    )) as SummaryRow[];
    const r = rows[0];
    if (!r) return null;
    return {
      id: r.id,
      caseId: r.case_id,
      version: r.version,
      generatedAt: new Date(r.generated_at).toISOString(),
      identityMatch: r.identity_match,
      authenticity: r.authenticity,
      flags: r.flags ?? [],
      recommendation: r.recommendation,
      rulesVersion: r.rules_version,
    };
  }
}
