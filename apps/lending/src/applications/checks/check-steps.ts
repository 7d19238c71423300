/** The check steps of an application, in the order they run (later steps read earlier results). */
export const CHECK_STEPS = [
  'identity_verification',
  'credit_bureau',
  'aml_screening',
  'scoring',
  'affordability',
] as const;
export type CheckStep = (typeof CHECK_STEPS)[number];

/**
 * A step's status: `pending` (created, not started), `running`, and the outcomes `passed`, `failed`
 * (a rule-relevant negative answer), `needs_review` (a person must look), `error` (the provider did
 * not answer: timeout or failure; RunCheck retries it).
 */
export const CHECK_STATUSES = ['pending', 'running', 'passed', 'failed', 'needs_review', 'error'] as const;
export type CheckStatus = (typeof CHECK_STATUSES)[number];

/** The outcomes a finished step can have. */
export type CheckOutcome = Extract<CheckStatus, 'passed' | 'failed' | 'needs_review'>;

export function isCheckStep(v: string): v is CheckStep {
  return (CHECK_STEPS as readonly string[]).includes(v);
}
