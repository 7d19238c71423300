import type { Language } from '@platform/i18n';

/** Identity match of a summary (verification.case_summaries.identity_match). */
export interface ReportIdentityMatch {
  status: 'match' | 'partial' | 'mismatch' | 'unknown';
  /** The name comparison's detail, as the summary stores it (a status word or an object). */
  name?: unknown;
  birthDate?: unknown;
}

/** One flag of a summary: the rule it cites and its evidence. */
export interface ReportFlag {
  code: string;
  severity: string;
  rule: string;
  evidence: unknown;
  stepId?: string | null;
}

/**
 * The summary as a report reads it: the summary area's `SummaryView` (read through its
 * SummariesRepository) is assignable to it. Kept narrower here because it is also the shape stored in
 * `report_issuances.content`, which must keep rendering reports issued under earlier summary rules.
 */
export interface ReportSummary {
  id: string;
  caseId: string;
  version: number;
  generatedAt: string;
  identityMatch: ReportIdentityMatch;
  authenticity: { status: 'passed' | 'failed' | 'inconclusive' };
  flags: ReportFlag[];
  recommendation: 'approve' | 'review' | 'decline';
  rulesVersion: string;
}

/**
 * Everything a report shows, fixed at issuance and kept with it (report_issuances.content): the PDF is
 * rendered from it alone, and the password view answers it, so both say what was issued even if the
 * case is edited or summarised again later.
 */
export interface ReportContent {
  reportId: string;
  language: Language;
  issuedAt: string;
  verifyUrl: string;
  organizationName: string;
  case: {
    id: string;
    externalReferenceId: string;
    applicantType: string;
    applicantName: string | null;
    applicantBirthDate: string | null;
    applicantCountryCode: string;
    reportCountryCode: string;
  };
  summary: ReportSummary;
}

/** A compact one-line reading of a stored detail (a string, a number, or a small object). */
export function describeValue(v: unknown): string {
  if (v === null || v === undefined) return '—';
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  if (Array.isArray(v)) return v.map(describeValue).join(', ');
  if (typeof v === 'object')
    return Object.entries(v as Record<string, unknown>)
      .map(([k, x]) => `${k}: ${describeValue(x)}`)
      .join('; ');
  return JSON.stringify(v) ?? '';
}
