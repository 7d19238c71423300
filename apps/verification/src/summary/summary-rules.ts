import type { CheckOutcome, CheckStepName } from '../checks/check-steps';
import type {
  Authenticity,
  AuthenticityCheck,
  FlagSeverity,
  IdentityComparison,
  IdentityMatch,
  IdentityStatus,
  Recommendation,
  SummaryFlag,
} from './summary-types';

/**
 * The summary rules (docs/verification/summary.md, "Rules"): a pure function from the case's stored
 * check steps to identity match, authenticity, flags and a recommendation. Nothing here reads the
 * database or the clock, so the same steps always give the same summary; bump SUMMARY_RULES_VERSION
 * whenever an outcome for the same steps would change.
 */
export const SUMMARY_RULES_VERSION = 'summary-rules/1';

/** One stored check step, as CheckStepsRepository.ofCase returns it (only what the rules read). */
export interface StepRecord {
  id: string;
  documentId: string | null;
  providerSessionId: string | null;
  step: CheckStepName;
  outcome: CheckOutcome;
  rule: string;
  evidence: Record<string, unknown>;
  detail: string | null;
  createdAt: Date;
}

/** A document of the case, as far as the rules care: is it still waiting for its checks? */
export interface DocumentRecord {
  id: string;
  status: string;
}

/**
 * The flag codes, each with its severity and the summary rule that raises it. A flag resting on a
 * step cites that step's own rule id (e.g. `ICAO9303.check-digit.document-number`) in `rule`; a flag
 * about something missing cites the summary rule below.
 */
export const FLAG_RULES = {
  FILE_TYPE_FAILED: { severity: 'critical', rule: 'summary.file-type-failed' },
  MRZ_CHECK_DIGIT_FAILED: { severity: 'critical', rule: 'summary.mrz-check-digit-failed' },
  DOCUMENT_EXPIRED: { severity: 'critical', rule: 'summary.document-expired' },
  NAME_MISMATCH: { severity: 'critical', rule: 'summary.name-mismatch' },
  BIRTH_DATE_MISMATCH: { severity: 'critical', rule: 'summary.birth-date-mismatch' },
  PROVIDER_REJECTED: { severity: 'critical', rule: 'summary.provider-rejected' },
  DUPLICATE_DOCUMENT: { severity: 'warning', rule: 'summary.duplicate-document' },
  NAME_PARTIAL_MATCH: { severity: 'warning', rule: 'summary.name-partial-match' },
  PROVIDER_CONSIDER: { severity: 'warning', rule: 'summary.provider-consider' },
  DOCUMENT_NOT_PARSED: { severity: 'warning', rule: 'summary.document-not-parsed' },
  CHECK_STEP_ERROR: { severity: 'warning', rule: 'summary.step-error' },
  NO_USABLE_DOCUMENT: { severity: 'warning', rule: 'summary.no-usable-document' },
  CHECKS_PENDING: { severity: 'warning', rule: 'summary.checks-pending' },
  IDENTITY_NOT_COMPARED: { severity: 'warning', rule: 'summary.identity-not-compared' },
  NAME_NOT_COMPARED: { severity: 'info', rule: 'summary.name-not-compared' },
  BIRTH_DATE_NOT_COMPARED: { severity: 'info', rule: 'summary.birth-date-not-compared' },
  PROVIDER_NOT_RUN: { severity: 'info', rule: 'summary.provider-not-run' },
} as const satisfies Record<string, { severity: FlagSeverity; rule: string }>;

export type FlagCode = keyof typeof FLAG_RULES;

/** The rules that decide the recommendation, in the order they are tried. */
export const RECOMMENDATION_RULES = {
  decline: 'summary.recommendation.critical-flag',
  review: 'summary.recommendation.warning-flag',
  approve: 'summary.recommendation.all-passed',
} as const satisfies Record<Recommendation, string>;

export interface SummaryOutcome {
  identityMatch: IdentityMatch;
  authenticity: Authenticity;
  flags: SummaryFlag[];
  recommendation: Recommendation;
  rulesVersion: string;
}

const SEVERITY_ORDER: Record<FlagSeverity, number> = { critical: 0, warning: 1, info: 2 };
/** Documents whose checks have not finished yet. */
const PENDING_DOCUMENT_STATUSES = new Set(['Uploaded', 'Processing']);
const PROVIDER_STEPS = new Set<CheckStepName>(['provider-kyc', 'provider-kyb']);
const AUTHENTICITY_STEPS = new Set<CheckStepName>(['file-type', 'mrz-check-digits', 'document-expiry']);

const stepFlag = (code: FlagCode, s: StepRecord): SummaryFlag => ({
  code,
  severity: FLAG_RULES[code].severity,
  rule: s.rule,
  evidence: s.evidence,
  stepId: s.id,
});

const ruleFlag = (code: FlagCode, evidence: Record<string, unknown>): SummaryFlag => ({
  code,
  severity: FLAG_RULES[code].severity,
  rule: FLAG_RULES[code].rule,
  evidence,
  stepId: null,
});

/** The flag one step raises, if any (docs/verification/summary.md, "Flags"). */
export function flagOfStep(s: StepRecord): SummaryFlag | null {
  if (s.outcome === 'passed') return null;
  switch (s.step) {
    case 'file-type':
      return s.outcome === 'failed' ? stepFlag('FILE_TYPE_FAILED', s) : stepFlag('CHECK_STEP_ERROR', s);
    case 'document-parse':
      // Not run because the file type failed: that failure is the flag.
      if (s.rule === 'document-parse.not-run') return null;
      return stepFlag('DOCUMENT_NOT_PARSED', s);
    case 'mrz-check-digits':
      if (s.outcome === 'failed') return stepFlag('MRZ_CHECK_DIGIT_FAILED', s);
      return s.outcome === 'skipped' ? null : stepFlag('CHECK_STEP_ERROR', s);
    case 'document-expiry':
      if (s.outcome === 'failed') return stepFlag('DOCUMENT_EXPIRED', s);
      return s.outcome === 'skipped' ? null : stepFlag('CHECK_STEP_ERROR', s);
    case 'name-match':
      if (s.outcome === 'failed') return stepFlag('NAME_MISMATCH', s);
      if (s.outcome === 'warning') return stepFlag('NAME_PARTIAL_MATCH', s);
      if (s.outcome === 'skipped')
        return s.rule === 'name-match.no-case-name' ? stepFlag('NAME_NOT_COMPARED', s) : null;
      return stepFlag('CHECK_STEP_ERROR', s);
    case 'birth-date-match':
      if (s.outcome === 'failed') return stepFlag('BIRTH_DATE_MISMATCH', s);
      if (s.outcome === 'skipped')
        return s.rule === 'birth-date-match.no-case-date' ? stepFlag('BIRTH_DATE_NOT_COMPARED', s) : null;
      return stepFlag('CHECK_STEP_ERROR', s);
    case 'duplicate-document':
      if (s.outcome === 'warning' || s.outcome === 'failed') return stepFlag('DUPLICATE_DOCUMENT', s);
      return s.outcome === 'skipped' ? null : stepFlag('CHECK_STEP_ERROR', s);
    case 'provider-kyc':
    case 'provider-kyb':
      if (s.outcome === 'failed') return stepFlag('PROVIDER_REJECTED', s);
      if (s.outcome === 'warning') return stepFlag('PROVIDER_CONSIDER', s);
      return s.outcome === 'skipped' ? null : stepFlag('CHECK_STEP_ERROR', s);
  }
}

/**
 * The steps the rules read: every document step, and of the provider steps only each kind's latest
 * (a caller may start a session again; the newest answer stands).
 */
export function effectiveSteps(steps: readonly StepRecord[]): StepRecord[] {
  const latestProvider = new Map<CheckStepName, StepRecord>();
  for (const s of steps) {
    if (!PROVIDER_STEPS.has(s.step)) continue;
    const prior = latestProvider.get(s.step);
    if (!prior || s.createdAt.getTime() >= prior.createdAt.getTime()) latestProvider.set(s.step, s);
  }
  return steps.filter((s) => !PROVIDER_STEPS.has(s.step) || latestProvider.get(s.step) === s);
}

const NAME_STATUS: Record<CheckOutcome, IdentityStatus> = {
  passed: 'match',
  warning: 'partial',
  failed: 'mismatch',
  skipped: 'unknown',
  error: 'unknown',
};
const BIRTH_DATE_STATUS: Record<CheckOutcome, IdentityStatus> = {
  ...NAME_STATUS,
  warning: 'unknown',
};
const WORST: readonly IdentityStatus[] = ['mismatch', 'partial', 'match', 'unknown'];

/** One comparison over all documents: the worst known result decides; none known is `unknown`. */
function comparison(
  steps: readonly StepRecord[],
  name: 'name-match' | 'birth-date-match',
  statusOf: Record<CheckOutcome, IdentityStatus>,
): IdentityComparison {
  const candidates = steps
    .filter((s) => s.step === name)
    .map((s) => ({ s, status: statusOf[s.outcome] }))
    .sort((a, b) => WORST.indexOf(a.status) - WORST.indexOf(b.status));
  const decided = candidates[0];
  if (!decided)
    return { status: 'unknown', rule: `summary.identity.${name}-absent`, stepId: null, evidence: {} };
  return { status: decided.status, rule: decided.s.rule, stepId: decided.s.id, evidence: decided.s.evidence };
}

/**
 * Identity match: `mismatch` when either comparison differs; `match` when both agree; `unknown` when
 * neither could be made; `partial` otherwise (a partial name, or only one of the two compared).
 */
export function identityMatch(steps: readonly StepRecord[]): IdentityMatch {
  const name = comparison(steps, 'name-match', NAME_STATUS);
  const birthDate = comparison(steps, 'birth-date-match', BIRTH_DATE_STATUS);
  const both = [name.status, birthDate.status];
  let status: IdentityStatus;
  if (both.includes('mismatch')) status = 'mismatch';
  else if (both.every((x) => x === 'match')) status = 'match';
  else if (both.every((x) => x === 'unknown')) status = 'unknown';
  else status = 'partial';
  return { status, name, birthDate };
}

/**
 * Authenticity, from the document-validity steps (file type, MRZ check digits, expiry): `failed` when
 * one failed; `passed` when some document passed all three; `inconclusive` otherwise (nothing parsed).
 */
export function authenticity(steps: readonly StepRecord[]): Authenticity {
  const relevant = steps.filter((s) => AUTHENTICITY_STEPS.has(s.step));
  const checks: AuthenticityCheck[] = relevant.map((s) => ({
    step: s.step,
    outcome: s.outcome,
    rule: s.rule,
    stepId: s.id,
  }));
  if (relevant.some((s) => s.outcome === 'failed')) return { status: 'failed', checks };
  const byDocument = new Map<string, Set<string>>();
  for (const s of relevant)
    if (s.documentId && s.outcome === 'passed')
      byDocument.set(s.documentId, (byDocument.get(s.documentId) ?? new Set()).add(s.step));
  const onePassedAll = [...byDocument.values()].some((passed) => passed.size === AUTHENTICITY_STEPS.size);
  return { status: onePassedAll ? 'passed' : 'inconclusive', checks };
}

/** Flags about what is missing rather than what a step found. */
function absenceFlags(
  steps: readonly StepRecord[],
  documents: readonly DocumentRecord[],
  identity: IdentityMatch,
): SummaryFlag[] {
  const flags: SummaryFlag[] = [];
  const documentIds = [...new Set(steps.filter((s) => s.documentId).map((s) => s.documentId as string))];
  const usable = steps.filter((s) => s.step === 'file-type' && s.outcome === 'passed' && s.documentId);
  if (!usable.length)
    flags.push(
      ruleFlag('NO_USABLE_DOCUMENT', {
        checkedDocuments: documentIds,
        fileTypePassed: 0,
      }),
    );
  const pending = documents.filter((d) => PENDING_DOCUMENT_STATUSES.has(d.status));
  if (pending.length)
    flags.push(
      ruleFlag('CHECKS_PENDING', {
        documents: pending.map((d) => ({ id: d.id, status: d.status })),
      }),
    );
  // Without a usable document the identity could not be compared: NO_USABLE_DOCUMENT says why.
  if (usable.length && identity.status === 'unknown')
    flags.push(
      ruleFlag('IDENTITY_NOT_COMPARED', {
        name: { status: identity.name.status, rule: identity.name.rule, stepId: identity.name.stepId },
        birthDate: {
          status: identity.birthDate.status,
          rule: identity.birthDate.rule,
          stepId: identity.birthDate.stepId,
        },
      }),
    );
  if (!steps.some((s) => PROVIDER_STEPS.has(s.step)))
    flags.push(ruleFlag('PROVIDER_NOT_RUN', { providerSteps: 0 }));
  return flags;
}

/** Any critical flag declines; else any warning sends to review; else approve. */
export function recommend(flags: readonly SummaryFlag[]): Recommendation {
  if (flags.some((f) => f.severity === 'critical')) return 'decline';
  if (flags.some((f) => f.severity === 'warning')) return 'review';
  return 'approve';
}

/** The summary of a case's check steps (and its documents' statuses). */
export function summarize(
  steps: readonly StepRecord[],
  documents: readonly DocumentRecord[] = [],
): SummaryOutcome {
  const effective = effectiveSteps(steps);
  const identity = identityMatch(effective);
  const stepFlags = effective.map(flagOfStep).filter((f): f is SummaryFlag => f !== null);
  const flags = [...stepFlags, ...absenceFlags(effective, documents, identity)]
    .map((f, i) => ({ f, i }))
    .sort((a, b) => SEVERITY_ORDER[a.f.severity] - SEVERITY_ORDER[b.f.severity] || a.i - b.i)
    .map(({ f }) => f);
  return {
    identityMatch: identity,
    authenticity: authenticity(effective),
    flags,
    recommendation: recommend(flags),
    rulesVersion: SUMMARY_RULES_VERSION,
  };
}

/** The flags that make a case need a person (the review task cites them). */
export const reviewFlags = (flags: readonly SummaryFlag[]): SummaryFlag[] =>
  flags.filter((f) => f.severity !== 'info');
