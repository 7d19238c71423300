export {
  outboxTablesDdl,
  dropOutboxTablesDdl,
  quoteSchema,
  OUTBOX_CHANNEL,
  OUTBOX_FILLFACTOR,
  type Queryable,
} from './sql';
export { outboxFillfactorMigration } from './outbox-fillfactor.migration';
export { OutboxWriter, type AppendOptions } from './outbox.writer';
export {
  prepareOutboxAppend,
  isoInstantSql,
  type OutboxAppend,
  type BindParam,
  type StatementFields,
} from './outbox.statement';
export { Inbox, type InboxOutcome, type TransactionRunner } from './inbox';
export {
  OutboxRelay,
  type RelayOptions,
  type RelayProducer,
  type RelayMessage,
  type PollResult,
  type DrainOptions,
  type DrainResult,
  type SchemaLag,
} from './outbox.relay';
