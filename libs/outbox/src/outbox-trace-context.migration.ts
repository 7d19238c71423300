import type { MigrationInterface, QueryRunner } from 'typeorm';
import { quoteSchema } from './sql';

/**
 * `trace_context`: the W3C trace context (traceparent, tracestate) of the work that wrote the event, as
 * JSON, null when tracing was off; the relay copies it into the message headers, so one request is one
 * trace across the outbox, the relay and the consumers. A nullable column without a default: adding it
 * rewrites nothing (a moment's ACCESS EXCLUSIVE lock), no index covers it, so the relay's lease stamps
 * stay heap-only updates. New tables get it from `outboxTablesDdl`; `IF NOT EXISTS` keeps this a no-op
 * on them.
 */
export function outboxTraceContextMigration(name: string, schema: string): new () => MigrationInterface {
  return class OutboxTraceContext implements MigrationInterface {
    name = name;

    async up(q: QueryRunner): Promise<void> {
      await q.query(`ALTER TABLE ${quoteSchema(schema)}.outbox ADD COLUMN IF NOT EXISTS trace_context jsonb`);
    }

    async down(q: QueryRunner): Promise<void> {
      await q.query(`ALTER TABLE ${quoteSchema(schema)}.outbox DROP COLUMN IF EXISTS trace_context`);
    }
  };
}
