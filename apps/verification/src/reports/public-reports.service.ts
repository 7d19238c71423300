import { createHash, timingSafeEqual } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import type { OkpPublicJwk } from '@platform/verification-checks';
import { VerificationConfig } from '../config/verification.config';
import type { ReportContent } from './report-content';
import type { ReportIssuance } from './report-issuance.entity';
import { PublicReportsRepository } from './public-reports.unscoped.repository';
import { verifySharePassword } from './report-password';
import { ReportSigner } from './report-signer';
import type { CheckInput } from './report-upload';
import { publicView, statusOf, type CheckView, type PublicReportView } from './report-views';
import { ReportsError, reportsError } from './reports.errors';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export interface OpenedReport {
  content: ReportContent;
  pdf: Buffer;
  view: PublicReportView;
}

/** The anonymous report verification address: status, alteration check, full view by password. */
@Injectable()
export class PublicReportsService {
  constructor(
    private readonly config: VerificationConfig,
    private readonly issuances: PublicReportsRepository,
    private readonly signer: ReportSigner,
  ) {}

  private get origin(): string {
    return this.config.PUBLIC_VERIFY_URL.replace(/\/+$/, '');
  }

  jwks(): { keys: OkpPublicJwk[] } {
    return this.signer.jwks();
  }

  async status(reportId: string): Promise<PublicReportView> {
    const { issuance, organizationName } = await this.found(reportId);
    return publicView(issuance, organizationName, this.origin);
  }

  /**
   * `unaltered` when the SHA-256 of what was sent equals the issued one and, for a file, the stored
   * detached signature verifies over its bytes with a published key; `altered` otherwise.
   */
  async check(reportId: string, input: CheckInput): Promise<CheckView> {
    const { issuance } = await this.found(reportId);
    const sha256 =
      input.kind === 'pdf' ? createHash('sha256').update(input.bytes).digest('hex') : input.sha256;
    const sameHash = timingSafeEqual(Buffer.from(sha256, 'hex'), Buffer.from(issuance.sha256, 'hex'));
    const signatureValid =
      input.kind === 'pdf' ? this.signer.verifies(input.bytes, issuance.signature) : null;
    return {
      reportId: issuance.id,
      result: sameHash && signatureValid !== false ? 'unaltered' : 'altered',
      sha256,
      expectedSha256: issuance.sha256,
      signatureValid,
      status: statusOf(issuance),
    };
  }

  /**
   * The full report for the password its issuer set. A report without a password and a wrong password
   * get the same answer after the same work (one scrypt derivation); a revoked report no longer opens.
   */
  async open(reportId: string, password: string): Promise<OpenedReport> {
    const { issuance, organizationName } = await this.found(reportId);
    const ok = await verifySharePassword(password, issuance.passwordHash);
    if (!ok) throw reportsError(ReportsError.REPORT_PASSWORD_INVALID, { reportId });
    if (issuance.revokedAt) throw reportsError(ReportsError.REPORT_REVOKED, { reportId });
    const pdf = await this.issuances.pdfOf(issuance.id);
    if (!pdf) throw reportsError(ReportsError.REPORT_NOT_FOUND, { reportId });
    return { content: issuance.content, pdf, view: publicView(issuance, organizationName, this.origin) };
  }

  private async found(reportId: string): Promise<{ issuance: ReportIssuance; organizationName: string }> {
    const hit = UUID.test(reportId) ? await this.issuances.findPublic(reportId.toLowerCase()) : null;
    if (!hit) throw reportsError(ReportsError.REPORT_NOT_FOUND, { reportId });
    return hit;
  }
}
