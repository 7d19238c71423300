import { outboxTraceContextMigration } from '@platform/outbox';

/** The outbox row keeps the trace context of the work that wrote it, for the relay's message headers. */
export const OutboxTraceContext1764100000000 = outboxTraceContextMigration(
  'OutboxTraceContext1764100000000',
  'lending',
);
