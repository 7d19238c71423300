/**
 * The summary's shapes (docs/verification/summary.md): what `verification.case_summaries` stores and
 * what the API answers. The rules that compute them are in summary-rules.ts.
 */
export const IDENTITY_STATUSES = ['match', 'partial', 'mismatch', 'unknown'] as const;
export type IdentityStatus = (typeof IDENTITY_STATUSES)[number];

export const AUTHENTICITY_STATUSES = ['passed', 'failed', 'inconclusive'] as const;
export type AuthenticityStatus = (typeof AUTHENTICITY_STATUSES)[number];

export const FLAG_SEVERITIES = ['info', 'warning', 'critical'] as const;
export type FlagSeverity = (typeof FLAG_SEVERITIES)[number];

export const RECOMMENDATIONS = ['approve', 'review', 'decline'] as const;
export type Recommendation = (typeof RECOMMENDATIONS)[number];

/** One comparison (name or birth date) as the identity match reads it from its step. */
export interface IdentityComparison {
  status: IdentityStatus;
  /** The step's own rule id, or the summary rule that stood in when no step was found. */
  rule: string;
  stepId: string | null;
  evidence: Record<string, unknown>;
}

export interface IdentityMatch {
  status: IdentityStatus;
  name: IdentityComparison;
  birthDate: IdentityComparison;
}

/** One authenticity signal: a document-validity step's outcome. */
export interface AuthenticityCheck {
  step: string;
  outcome: string;
  rule: string;
  stepId: string;
}

export interface Authenticity {
  status: AuthenticityStatus;
  /** The steps that decided it, in the order the rules read them. */
  checks: AuthenticityCheck[];
}

/**
 * One flag: the summary rule that raised it (`rule`, see SUMMARY_RULES), the check step it rests on
 * (`stepId`, null for a flag about something missing) and that step's evidence.
 */
export interface SummaryFlag {
  code: string;
  severity: FlagSeverity;
  rule: string;
  evidence: Record<string, unknown>;
  stepId: string | null;
}

/** A stored summary as the API answers it (and the report area reads it). */
export interface SummaryView {
  id: string;
  caseId: string;
  version: number;
  generatedAt: string;
  identityMatch: IdentityMatch;
  authenticity: Authenticity;
  flags: SummaryFlag[];
  recommendation: Recommendation;
  rulesVersion: string;
}

export const sqlIn = (column: string, values: readonly string[]) =>
  `${column} IN (${values.map((v) => `'${v}'`).join(', ')})`;
