export { outboxTablesDdl, dropOutboxTablesDdl, quoteSchema, OUTBOX_CHANNEL, type Queryable } from './sql';
export { OutboxWriter, type AppendOptions } from './outbox.writer';
export { Inbox, type InboxOutcome, type TransactionRunner } from './inbox';
export {
  OutboxRelay,
  type RelayOptions,
  type RelayProducer,
  type RelayMessage,
  type PollResult,
  type SchemaLag,
} from './outbox.relay';
