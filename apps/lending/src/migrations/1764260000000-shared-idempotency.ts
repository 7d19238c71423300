import { idempotencyKeysMigration } from '@platform/idempotency';

/**
 * Lending's Idempotency-Keys move to @platform/idempotency: the table stays as it is (the library's
 * IdempotencyKey is the same table), and `lending.idempotency_hold` takes the library's body, which
 * also answers a wait of 0 at once (lending always waits at least LENDING_IDEMPOTENCY_WAIT_MS >= 100).
 */
export const SharedIdempotency1764260000000 = idempotencyKeysMigration(
  'SharedIdempotency1764260000000',
  'lending',
  {
    tableExists: true,
    functionExisted: true,
  },
);
