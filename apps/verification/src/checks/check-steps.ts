/**
 * The orchestrator's steps and their outcomes (docs/verification/checks.md). A step's row is what the
 * summary and the caller read: its outcome, the stable id of the rule that decided it, and the
 * evidence (what was read and compared).
 */
export const CHECK_STEPS = [
  'file-type',
  'document-parse',
  'mrz-check-digits',
  'document-expiry',
  'name-match',
  'birth-date-match',
  'duplicate-document',
  'provider-kyc',
  'provider-kyb',
] as const;
export type CheckStepName = (typeof CHECK_STEPS)[number];

/**
 * `passed`/`failed`: the rule held or not; `warning`: worth a human look, not a failure (a duplicate);
 * `skipped`: the step could not apply (no MRZ, no OCR for images, nothing on the case to compare);
 * `error`: the step itself could not run (unreadable file, a provider error).
 */
export const CHECK_OUTCOMES = ['passed', 'failed', 'warning', 'skipped', 'error'] as const;
export type CheckOutcome = (typeof CHECK_OUTCOMES)[number];

/** SQL `IN` list of a constant tuple: the same text in the entity's @Check and in the migration. */
export const sqlIn = (column: string, values: readonly string[]) =>
  `${column} IN (${values.map((v) => `'${v}'`).join(', ')})`;

/** What was read and compared; never a secret (no file bytes, no tokens). */
export type CheckEvidence = Record<string, unknown>;

/** One step's result, before it is stored. */
export interface StepResult {
  step: CheckStepName;
  outcome: CheckOutcome;
  rule: string;
  evidence: CheckEvidence;
  detail: string | null;
}
