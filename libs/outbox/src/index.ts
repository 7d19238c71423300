export {
  outboxTablesDdl,
  dropOutboxTablesDdl,
  quoteSchema,
  OUTBOX_CHANNEL,
  OUTBOX_FILLFACTOR,
  type Queryable,
} from './sql';
export { outboxFillfactorMigration } from './outbox-fillfactor.migration';
export { outboxTraceContextMigration } from './outbox-trace-context.migration';
export {
  TRACE_FIELDS,
  activeTraceContext,
  contextFrom,
  traceFields,
  type TraceCarrier,
  type TraceField,
} from './trace-context';
export { OutboxWriter, type AppendOptions } from './outbox.writer';
export {
  prepareOutboxAppend,
  outboxInsertSql,
  isoInstantSql,
  type OutboxAppend,
  type BindParam,
  type StatementFields,
} from './outbox.statement';
export { Inbox, type InboxOutcome, type TransactionRunner } from './inbox';
export { redriveDeadEvents, type OutboxRedriveFilter, type RedrivenEvent } from './outbox-redrive';
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
