import { defineErrors } from '@platform/envelope';

/**
 * The reasons of an operation that takes an Idempotency-Key, alike in every service
 * (docs/idempotency.md). Texts: libs/i18n/src/locales/<lang>/idempotency.json, key
 * `idempotency.errors.<reason>`.
 */
export enum IdempotencyError {
  /** The operation requires `Idempotency-Key` and the request has none. */
  KEY_MISSING = 'IDEMPOTENCY_KEY_MISSING',
  /** The key is not 1-255 visible ASCII characters. */
  KEY_INVALID = 'IDEMPOTENCY_KEY_INVALID',
  /** The key was used (within its retention) for a different request: another route or body. */
  KEY_REUSED = 'IDEMPOTENCY_KEY_REUSED',
  /** The first request with the key is still running (after the service's bounded wait); retry. */
  REQUEST_IN_PROGRESS = 'IDEMPOTENCY_REQUEST_IN_PROGRESS',
}

const key = (c: IdempotencyError) => `idempotency.errors.${c}`;

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
