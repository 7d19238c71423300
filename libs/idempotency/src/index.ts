export {
  IDEMPOTENCY_HEADER,
  REPLAYED_HEADER,
  Idempotency,
  IdempotentOperation,
  canonicalJson,
  idempotentRequestOf,
  requestHash,
  type IdempotentRequest,
} from './idempotent-request';
export { IdempotencyError, idempotencyError, IDEMPOTENCY_REASONS } from './idempotency.errors';
export { IdempotencyKey } from './idempotency-key.entity';
export { IdempotencyKeysRepository, type StoredAnswer } from './idempotency-keys.repository';
export {
  IdempotentOperations,
  type AnswerStore,
  type IdempotencyOptions,
  type IdempotentRun,
} from './idempotent-operations';
export {
  idempotencyHoldFunctionDdl,
  idempotencyKeysMigration,
  idempotencyKeysTableDdl,
} from './idempotency-schema';
