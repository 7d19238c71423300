import { defineErrors } from '@platform/envelope';

/**
 * Reasons of the Idempotency-Key every lending money operation and schedule change requires
 * (docs/lending/loans.md, "Idempotency"). Texts: apps/lending/src/i18n/<lang>/loans.json, key
 * `loans.errors.<reason>`.
 */
export enum IdempotencyError {
  /** A money operation without `Idempotency-Key`. */
  KEY_MISSING = 'IDEMPOTENCY_KEY_MISSING',
  /** The key is not 1-255 visible ASCII characters. */
  KEY_INVALID = 'IDEMPOTENCY_KEY_INVALID',
  /** The key was used (within its retention) for a different request: another route or body. */
  KEY_REUSED = 'IDEMPOTENCY_KEY_REUSED',
  /** The first request with the key is still running after the bounded wait; retry to get its answer. */
  REQUEST_IN_PROGRESS = 'IDEMPOTENCY_REQUEST_IN_PROGRESS',
}

const key = (c: IdempotencyError) => `loans.errors.${c}`;

export const idempotencyError = defineErrors<IdempotencyError>({
  [IdempotencyError.KEY_MISSING]: { status: 400, messageKey: key(IdempotencyError.KEY_MISSING) },
  [IdempotencyError.KEY_INVALID]: { status: 400, messageKey: key(IdempotencyError.KEY_INVALID) },
  [IdempotencyError.KEY_REUSED]: { status: 422, messageKey: key(IdempotencyError.KEY_REUSED) },
  [IdempotencyError.REQUEST_IN_PROGRESS]: {
    status: 409,
    messageKey: key(IdempotencyError.REQUEST_IN_PROGRESS),
  },
});

/** Every reason an idempotent route may answer, for its `@ApiReasons`. */
export const IDEMPOTENCY_REASONS = [
  IdempotencyError.KEY_MISSING,
  IdempotencyError.KEY_INVALID,
  IdempotencyError.KEY_REUSED,
  IdempotencyError.REQUEST_IN_PROGRESS,
] as const;
