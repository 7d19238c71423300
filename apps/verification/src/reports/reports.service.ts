import { createHash, randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { I18nService } from 'nestjs-i18n';
import type { ListValue } from '@platform/envelope';
import type { Language } from '@platform/i18n';
import { Transactions } from '@platform/persistence';
import type { OrganizationId } from '@platform/tenancy';
import { CasesError, casesError } from '../cases/cases.errors';
import { CasesRepository } from '../cases/cases.repository';
import type { VerificationCase } from '../cases/verification-case.entity';
import { VerificationConfig } from '../config/verification.config';
import { SummariesRepository } from '../summary/summaries.repository';
import type { ReportContent } from './report-content';
import { ReportIssuancesRepository } from './report-issuances.repository';
import { hashSharePassword } from './report-password';
import { renderReportPdf } from './report-pdf';
import { ReportSigner } from './report-signer';
import { reportTexts } from './report-texts';
import { REPORTS_PUBLIC_PATH, issuanceView, type IssuanceView } from './report-views';
import { ReportsError, reportsError } from './reports.errors';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export interface IssuedReport {
  view: IssuanceView;
  pdf: Buffer;
}

/** Issues summary reports (PDF, signed, logged), lists and revokes them: docs/verification/reports.md. */
@Injectable()
export class ReportsService {
  constructor(
    private readonly config: VerificationConfig,
    private readonly transactions: Transactions,
    private readonly cases: CasesRepository,
    private readonly issuances: ReportIssuancesRepository,
    private readonly summaries: SummariesRepository,
    private readonly signer: ReportSigner,
    private readonly i18n: I18nService,
  ) {}

  get verifyOrigin(): string {
    return this.config.PUBLIC_VERIFY_URL.replace(/\/+$/, '');
  }

  /**
   * Renders the case's latest summary as a PDF in `language`, signs it and logs the issuance; the
   * case's earlier reports become superseded. Inside one transaction the case row is locked, so the
   * issuances of a case happen one after the other: each gets an issue time (whole seconds, what the
   * PDF prints) strictly after the previous one's, which orders the log and names the current report.
   * The password's hash (scrypt, the slow part) is computed before the lock.
   */
  async issue(
    organizationId: OrganizationId,
    caseId: string,
    language: Language,
    sharePassword?: string,
  ): Promise<IssuedReport> {
    const found = await this.found(organizationId, caseId);
    const summary = await this.summaries.latest(organizationId, found.id);
    if (!summary) throw reportsError(ReportsError.SUMMARY_NOT_FOUND, { caseId });
    const passwordHash = sharePassword ? await hashSharePassword(sharePassword) : null;
    const organizationName = await this.issuances.organizationName(organizationId);
    const reportId = randomUUID();
    const row = await this.transactions.run(async (tx) => {
      const locked = await this.cases.lock(organizationId, found.id, tx);
      if (!locked) throw casesError(CasesError.NOT_FOUND, { caseId });
      const last = await this.issuances.lastIssuedAt(organizationId, found.id, tx);
      const issuedAt = new Date(
        Math.max(Math.floor(Date.now() / 1000) * 1000, last ? last.getTime() + 1000 : 0),
      );
      const content: ReportContent = {
        reportId,
        language,
        issuedAt: issuedAt.toISOString(),
        verifyUrl: `${this.verifyOrigin}${REPORTS_PUBLIC_PATH}${reportId}`,
        organizationName,
        case: {
          id: locked.id,
          externalReferenceId: locked.externalReferenceId,
          applicantType: locked.applicantType,
          applicantName: locked.applicantName,
          applicantBirthDate: locked.applicantBirthDate,
          applicantCountryCode: locked.applicantCountryCode,
          reportCountryCode: locked.reportCountryCode,
        },
        summary,
      };
      const pdf = await renderReportPdf(content, reportTexts(this.i18n, 'pdf', language));
      const issued = {
        id: reportId,
        caseId: locked.id,
        summaryId: summary.id,
        summaryVersion: summary.version,
        language,
        sha256: createHash('sha256').update(pdf).digest('hex'),
        signature: this.signer.sign(pdf),
        kid: this.signer.kid,
        issuedAt,
        passwordHash,
        content,
        pdf,
      };
      await this.issuances.add(organizationId, issued, tx);
      await this.issuances.supersedeOthers(organizationId, locked.id, reportId, issuedAt, tx);
      return issued;
    });
    const view = issuanceView(
      {
        ...row,
        organizationId,
        supersededBy: null,
        supersededAt: null,
        revokedAt: null,
        revocationReason: null,
      },
      this.verifyOrigin,
    );
    return { view, pdf: row.pdf };
  }

  async list(organizationId: OrganizationId, caseId: string): Promise<ListValue<IssuanceView>> {
    const found = await this.found(organizationId, caseId);
    const rows = await this.issuances.listOf(organizationId, found.id);
    return { items: rows.map((r) => issuanceView(r, this.verifyOrigin)), total: rows.length };
  }

  async revoke(
    organizationId: OrganizationId,
    caseId: string,
    reportId: string,
    reason: string,
  ): Promise<IssuanceView> {
    const found = await this.found(organizationId, caseId);
    if (!UUID.test(reportId)) throw reportsError(ReportsError.REPORT_NOT_FOUND, { reportId });
    return this.transactions.run(async (tx) => {
      const report = await this.issuances.get(organizationId, found.id, reportId, tx);
      if (!report) throw reportsError(ReportsError.REPORT_NOT_FOUND, { reportId });
      if (!(await this.issuances.revoke(organizationId, found.id, reportId, reason, new Date(), tx)))
        throw reportsError(ReportsError.REPORT_ALREADY_REVOKED, { reportId });
      const revoked = await this.issuances.get(organizationId, found.id, reportId, tx);
      return issuanceView(revoked ?? report, this.verifyOrigin);
    });
  }

  private async found(organizationId: OrganizationId, caseId: string): Promise<VerificationCase> {
    const c = UUID.test(caseId) ? await this.cases.get(organizationId, caseId) : null;
    if (!c) throw casesError(CasesError.NOT_FOUND, { caseId });
    return c;
  }
}
