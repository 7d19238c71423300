import { CHECK_STEPS, type CheckStatus, type CheckStep } from '../checks/check-steps';
import type { DecisionReason } from './decision-reasons';

/** The rules approve by themselves only at or above this score (and only when every step passed). */
export const AUTO_APPROVE_MIN_SCORE = 700;

/** The decline reason of each step's `failed` outcome. */
export const FAILED_STEP_REASON: Record<CheckStep, DecisionReason> = {
  identity_verification: 'IDENTITY_NOT_CONFIRMED',
  credit_bureau: 'ADVERSE_CREDIT_HISTORY',
  aml_screening: 'AML_MATCH',
  scoring: 'SCORE_TOO_LOW',
  affordability: 'NOT_AFFORDABLE',
};

export interface StepVerdictInput {
  step: CheckStep;
  status: CheckStatus;
}

export type RulesVerdict =
  | { verdict: 'approve'; reasons: DecisionReason[] }
  | { verdict: 'decline'; reasons: DecisionReason[] }
  | { verdict: 'review'; waitingOn: { step: CheckStep; status: CheckStatus }[] };

/**
 * The decision rules, applied once after RunChecks (docs/lending/applications.md, "Decision rules"):
 * 1. a step `failed` (identity mismatch, AML hit, adverse bureau history, score too low, not
 *    affordable) declines, with each failed step's reason;
 * 2. every step `passed` and the score at least AUTO_APPROVE_MIN_SCORE approves;
 * 3. anything else (needs_review, error, a score below the bar) waits for a person (under_review).
 */
export function rulesVerdict(checks: readonly StepVerdictInput[], score: number | null): RulesVerdict {
  const byStep = new Map(checks.map((c) => [c.step, c.status]));
  const failed = CHECK_STEPS.filter((s) => byStep.get(s) === 'failed');
  if (failed.length) return { verdict: 'decline', reasons: failed.map((s) => FAILED_STEP_REASON[s]) };
  const allPassed = CHECK_STEPS.every((s) => byStep.get(s) === 'passed');
  if (allPassed && score !== null && score >= AUTO_APPROVE_MIN_SCORE)
    return { verdict: 'approve', reasons: ['ALL_CHECKS_PASSED', 'SCORE_ABOVE_THRESHOLD'] };
  return {
    verdict: 'review',
    waitingOn: CHECK_STEPS.filter((s) => byStep.get(s) !== 'passed').map((s) => ({
      step: s,
      status: byStep.get(s) ?? 'pending',
    })),
  };
}
