/** Anything that runs SQL inside the caller's transaction: a TypeORM EntityManager or a pg client. */
export interface Queryable {
  query(sql: string, params?: unknown[]): Promise<unknown>;
}

const IDENT = /^[a-z_][a-z0-9_]*$/;

export function quoteSchema(schema: string): string {
  if (!IDENT.test(schema)) throw new Error(`unsafe schema name: ${schema}`);
  return `"${schema}"`;
}

/** Free room per outbox page for the relay's lease stamps: heap-only updates (decision 0015). */
export const OUTBOX_FILLFACTOR = 50;

/**
 * DDL of the outbox and inbox tables, for each service's own migrations. The relay reads and updates
 * only `outbox`; consumers write only `inbox` (plus their business tables).
 */
export function outboxTablesDdl(schema: string): string[] {
  const s = quoteSchema(schema);
  return [
    `CREATE TABLE ${s}.outbox (
      seq bigserial PRIMARY KEY,
      id uuid NOT NULL UNIQUE,
      topic text NOT NULL,
      event_type text NOT NULL,
      schema_version integer NOT NULL,
      aggregate_type text NOT NULL,
      aggregate_id text NOT NULL,
      tenant_id text,
      request_id text,
      payload jsonb NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      available_at timestamptz NOT NULL DEFAULT now(),
      attempts integer NOT NULL DEFAULT 0,
      failures integer NOT NULL DEFAULT 0,
      last_error text,
      lease_owner text,
      lease_until timestamptz,
      sent_at timestamptz,
      dead_at timestamptz,
      trace_context jsonb
    ) WITH (fillfactor = ${OUTBOX_FILLFACTOR})`,
    `CREATE INDEX outbox_pending_idx ON ${s}.outbox (seq) WHERE sent_at IS NULL AND dead_at IS NULL`,
    `CREATE INDEX outbox_aggregate_pending_idx ON ${s}.outbox (aggregate_type, aggregate_id, seq)
       WHERE sent_at IS NULL AND dead_at IS NULL`,
    `CREATE INDEX outbox_sent_idx ON ${s}.outbox (sent_at) WHERE sent_at IS NOT NULL`,
    `CREATE TABLE ${s}.inbox (
      consumer text NOT NULL,
      event_id uuid NOT NULL,
      topic text NOT NULL,
      received_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (consumer, event_id)
    )`,
  ];
}

export function dropOutboxTablesDdl(schema: string): string[] {
  const s = quoteSchema(schema);
  return [`DROP TABLE ${s}.inbox`, `DROP TABLE ${s}.outbox`];
}

/** Channel the writer notifies on commit so relays wake up at once instead of waiting for a poll. */
export const OUTBOX_CHANNEL = 'outbox_appended';
