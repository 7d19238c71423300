import type {
  Affordability,
  AmlScreening,
  CreditReport,
  IdentityVerification,
  Score,
} from '../providers/check-providers';
import type { CheckOutcome } from './check-steps';

/** A provider's answer read as a step outcome, with a short code saying why (null when passed). */
export interface StepOutcome {
  status: CheckOutcome;
  reasonCode: string | null;
}

/** Scores at or above SCORE_PASS pass the scoring step; from SCORE_REVIEW a person looks; below, fail. */
export const SCORE_PASS = 600;
export const SCORE_REVIEW = 500;
/** A delinquency this many days past due, or worse, fails the bureau step. */
export const SERIOUS_DELINQUENCY_DAYS = 90;

const passed: StepOutcome = { status: 'passed', reasonCode: null };

export function identityOutcome(v: IdentityVerification): StepOutcome {
  if (v.outcome === 'match') return passed;
  if (v.outcome === 'mismatch') return { status: 'failed', reasonCode: 'IDENTITY_MISMATCH' };
  return { status: 'needs_review', reasonCode: 'IDENTITY_NOT_FOUND' };
}

export function bureauOutcome(r: CreditReport): StepOutcome {
  if (r.record === 'none') return { status: 'needs_review', reasonCode: 'NO_CREDIT_RECORD' };
  if (r.worstDelinquencyDays >= SERIOUS_DELINQUENCY_DAYS)
    return { status: 'failed', reasonCode: 'SERIOUS_DELINQUENCY' };
  return passed;
}

export function amlOutcome(s: AmlScreening): StepOutcome {
  if (s.outcome === 'clear') return passed;
  if (s.outcome === 'hit') return { status: 'failed', reasonCode: 'SANCTIONS_HIT' };
  return { status: 'needs_review', reasonCode: 'POSSIBLE_MATCH' };
}

export function scoreOutcome(s: Score): StepOutcome {
  if (s.score >= SCORE_PASS) return passed;
  if (s.score >= SCORE_REVIEW) return { status: 'needs_review', reasonCode: 'SCORE_BORDERLINE' };
  return { status: 'failed', reasonCode: 'SCORE_TOO_LOW' };
}

export function affordabilityOutcome(a: Affordability): StepOutcome {
  if (a.outcome === 'affordable') return passed;
  if (a.outcome === 'marginal') return { status: 'needs_review', reasonCode: 'DEBT_TO_INCOME_HIGH' };
  return { status: 'failed', reasonCode: 'DEBT_TO_INCOME_TOO_HIGH' };
}

/** The step's code when its provider did not answer. */
export const PROVIDER_TIMEOUT = 'PROVIDER_TIMEOUT';
export const PROVIDER_ERROR = 'PROVIDER_ERROR';
