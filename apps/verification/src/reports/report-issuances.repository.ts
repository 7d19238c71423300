import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, IsNull, Not } from 'typeorm';
import { TenantScopedRepository, type Tx } from '@platform/persistence';
import { Organization, type OrganizationId } from '@platform/tenancy';
import { ReportIssuance } from './report-issuance.entity';

export type NewReportIssuance = Omit<
  ReportIssuance,
  'organizationId' | 'supersededBy' | 'supersededAt' | 'revokedAt' | 'revocationReason'
>;

/** An issuance as the public address reads it, with the organization's display name. */
export interface PublicReportIssuance {
  issuance: ReportIssuance;
  organizationName: string;
}

/** The report issuance log (append-only: rows are added; only their unset status columns are set). */
@Injectable()
export class ReportIssuancesRepository extends TenantScopedRepository<ReportIssuance, 'organizationId'> {
  constructor(@InjectDataSource() ds: DataSource) {
    super(ds, ReportIssuance, 'organizationId');
  }

  async add(organizationId: OrganizationId, row: NewReportIssuance, tx: Tx): Promise<void> {
    await this.insert(organizationId, [row], tx);
  }

  /** Marks the case's other reports not yet superseded as superseded by `reportId`; returns how many. */
  supersedeOthers(
    organizationId: OrganizationId,
    caseId: string,
    reportId: string,
    at: Date,
    tx: Tx,
  ): Promise<number> {
    return this.update(
      organizationId,
      { caseId, id: Not(reportId), supersededBy: IsNull() },
      { supersededBy: reportId, supersededAt: at },
      tx,
    );
  }

  /** When the case's latest report was issued (issue times of one case strictly increase), or null. */
  async lastIssuedAt(organizationId: OrganizationId, caseId: string, tx: Tx): Promise<Date | null> {
    const last = await this.select(
      organizationId,
      'r',
      (q) => q.andWhere('r.case_id = :caseId', { caseId }).orderBy('r.issued_at', 'DESC').getOne(),
      tx,
    );
    return last?.issuedAt ?? null;
  }

  /** The case's issuance log, newest first. */
  listOf(organizationId: OrganizationId, caseId: string): Promise<ReportIssuance[]> {
    return this.find(organizationId, { caseId }, { issuedAt: 'DESC' });
  }

  get(organizationId: OrganizationId, caseId: string, id: string, tx?: Tx): Promise<ReportIssuance | null> {
    return this.findOne(organizationId, { caseId, id }, tx);
  }

  /** Revokes the report unless it already is; returns whether this call revoked it. */
  async revoke(
    organizationId: OrganizationId,
    caseId: string,
    id: string,
    reason: string,
    at: Date,
    tx: Tx,
  ): Promise<boolean> {
    const n = await this.update(
      organizationId,
      { caseId, id, revokedAt: IsNull() },
      { revokedAt: at, revocationReason: reason },
      tx,
    );
    return n > 0;
  }

  /** The organization's display name, printed in its reports and shown on their public page. */
  async organizationName(organizationId: OrganizationId): Promise<string> {
    const org = await this.asTenant(organizationId, (m) =>
      m.getRepository(Organization).findOneBy({ id: organizationId }),
    );
    return org?.name ?? organizationId;
  }
}
