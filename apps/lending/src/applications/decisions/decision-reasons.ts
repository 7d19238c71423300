/**
 * Underwriting decision reasons: stable codes, texts in apps/lending/src/i18n/<lang>/applications.json
 * (`decisionReasons.<CODE>`). A person picks them in MakeDecision; the rules set them themselves.
 */
export const DECISION_REASONS = [
  'ALL_CHECKS_PASSED',
  'SCORE_ABOVE_THRESHOLD',
  'REVIEWED_BY_UNDERWRITER',
  'IDENTITY_NOT_CONFIRMED',
  'AML_MATCH',
  'ADVERSE_CREDIT_HISTORY',
  'NO_CREDIT_HISTORY',
  'SCORE_TOO_LOW',
  'NOT_AFFORDABLE',
  'POLICY_CRITERIA_NOT_MET',
  'AMOUNT_REDUCED',
  'TERM_CHANGED',
  'RATE_ADJUSTED_FOR_RISK',
  'OTHER',
] as const;
export type DecisionReason = (typeof DECISION_REASONS)[number];

export const DECISION_OUTCOMES = ['approve', 'decline', 'counter_offer'] as const;
export type DecisionOutcome = (typeof DECISION_OUTCOMES)[number];

/** Who decided: a person (the key that called MakeDecision) or the decision rules after the checks. */
export const DECIDERS = ['person', 'rules'] as const;
export type Decider = (typeof DECIDERS)[number];
