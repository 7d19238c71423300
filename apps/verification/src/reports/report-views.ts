import type { ReportIssuance } from './report-issuance.entity';

/** Where a report's public page lives, under the gateway's /verify/v1 prefix. */
export const REPORTS_PUBLIC_PATH = '/verify/v1/reports/';
export const JWKS_PUBLIC_PATH = '/verify/v1/jwks.json';

export type ReportStatus = 'current' | 'superseded' | 'revoked';

/** Revoked wins over superseded: a revoked report says so whatever came after it. */
export function statusOf(r: Pick<ReportIssuance, 'revokedAt' | 'supersededBy'>): ReportStatus {
  if (r.revokedAt) return 'revoked';
  return r.supersededBy ? 'superseded' : 'current';
}

/** One entry of a case's issuance log, as the organization sees it. */
export interface IssuanceView {
  reportId: string;
  caseId: string;
  summaryId: string;
  summaryVersion: number;
  language: string;
  issuedAt: string;
  status: ReportStatus;
  supersededBy: string | null;
  supersededAt: string | null;
  revokedAt: string | null;
  revocationReason: string | null;
  passwordProtected: boolean;
  sha256: string;
  signature: string;
  kid: string;
  verifyUrl: string;
}

/** What the anonymous public address tells about a report: no applicant data. */
export interface PublicReportView {
  reportId: string;
  issuedByPlatform: true;
  issuedAt: string;
  organizationName: string;
  status: ReportStatus;
  supersededBy: string | null;
  supersededAt: string | null;
  revokedAt: string | null;
  passwordProtected: boolean;
  sha256: string;
  signature: string;
  kid: string;
  jwksUrl: string;
}

export interface CheckView {
  reportId: string;
  result: 'unaltered' | 'altered';
  /** SHA-256 of what was sent (the file's, or the hash sent). */
  sha256: string;
  expectedSha256: string;
  /** Whether the stored signature verifies over the bytes sent; null when only a hash was sent. */
  signatureValid: boolean | null;
  status: ReportStatus;
}

const iso = (d: Date | null) => (d ? d.toISOString() : null);

export function issuanceView(r: ReportIssuance, verifyOrigin: string): IssuanceView {
  return {
    reportId: r.id,
    caseId: r.caseId,
    summaryId: r.summaryId,
    summaryVersion: r.summaryVersion,
    language: r.language,
    issuedAt: r.issuedAt.toISOString(),
    status: statusOf(r),
    supersededBy: r.supersededBy,
    supersededAt: iso(r.supersededAt),
    revokedAt: iso(r.revokedAt),
    revocationReason: r.revocationReason,
    passwordProtected: r.passwordHash !== null,
    sha256: r.sha256,
    signature: r.signature,
    kid: r.kid,
    verifyUrl: `${verifyOrigin}${REPORTS_PUBLIC_PATH}${r.id}`,
  };
}

export function publicView(
  r: ReportIssuance,
  organizationName: string,
  verifyOrigin: string,
): PublicReportView {
  return {
    reportId: r.id,
    issuedByPlatform: true,
    issuedAt: r.issuedAt.toISOString(),
    organizationName,
    status: statusOf(r),
    supersededBy: r.supersededBy,
    supersededAt: iso(r.supersededAt),
    revokedAt: iso(r.revokedAt),
    passwordProtected: r.passwordHash !== null,
    sha256: r.sha256,
    signature: r.signature,
    kid: r.kid,
    jwksUrl: `${verifyOrigin}${JWKS_PUBLIC_PATH}`,
  };
}
