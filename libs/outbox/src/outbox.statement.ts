import { randomUUID } from 'node:crypto';
import { assertValid, type TopicContract } from '@platform/messaging';
import { requestIdOf, type AppendOptions } from './outbox.writer';
import { OUTBOX_CHANNEL, quoteSchema } from './sql';
import { activeTraceContext } from './trace-context';

/** Adds a value to the caller's statement parameters and returns its placeholder (`$n`). */
export type BindParam = (value: unknown) => string;

/**
 * Payload fields whose values only the statement knows (a generated id, the row's timestamp): each an
 * SQL expression over the columns of the source row, which `jsonb_build_object` turns into the field's
 * JSON value (uuid and text give strings, integers numbers; render instants with `isoInstantSql`).
 */
export type StatementFields<F extends string> = Readonly<Record<F, string>>;

/**
 * A validated event ready to be written by the caller's own statement, typically as one of its
 * data-modifying CTEs, so the business row and the event are one statement and one transaction.
 */
export interface OutboxAppend {
  /** The outbox row's id (the event id the consumers' inbox dedupes on). */
  readonly id: string;
  /**
   * `INSERT INTO <schema>.outbox ... SELECT ... [FROM source]`: one outbox row per row of `source` (none
   * when it is empty; exactly one without a source), with the same columns as `OutboxWriter.append` and
   * the same `pg_notify`, which PostgreSQL delivers only if the transaction commits, and the trace
   * context active when the event was prepared.
   */
  insertSql(bind: BindParam, source?: string): string;
  /** The row's `SELECT` alone, for `outboxInsertSql`, which writes several events in one `INSERT`. */
  selectSql(bind: BindParam): string;
}

/**
 * One `INSERT` of several prepared events (no `source`), in their order (the outbox `seq` follows the
 * order of the rows), with the `pg_notify` of `insertSql`. For a data-modifying CTE of the caller's.
 */
export function outboxInsertSql(schema: string, appends: readonly OutboxAppend[], bind: BindParam): string {
  if (!appends.length) throw new Error('outboxInsertSql needs at least one event');
  return `INSERT INTO ${quoteSchema(schema)}.outbox
    (id, topic, event_type, schema_version, aggregate_type, aggregate_id, tenant_id, request_id, payload,
     trace_context)
  ${appends.map((a) => a.selectSql(bind)).join('\n  UNION ALL\n  ')}
  RETURNING id, pg_notify(${bind(OUTBOX_CHANNEL)}, ${bind(schema)})`;
}

/** A `timestamptz` expression as a JSON instant the way `Date.prototype.toISOString` writes it. */
export function isoInstantSql(expr: string): string {
  return `to_char((${expr}) AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
}

/**
 * Prepares an outbox event for a statement the caller builds. The payload is validated against its
 * contract here, before any SQL runs, as `OutboxWriter.append` does. Fields the statement fills in
 * (`fromRow`) are validated with the contract's example values in their place: their SQL expressions
 * come from code, not input, and the producer's tests check that what they write validates.
 */
export function prepareOutboxAppend<T, F extends keyof T & string = never>(
  schema: string,
  contract: TopicContract<T>,
  payload: Omit<T, F>,
  opts: AppendOptions = {},
  fromRow?: StatementFields<F>,
): OutboxAppend {
  const filled = Object.entries(fromRow ?? {}) as [F, string][];
  if (filled.length && contract.example === undefined)
    throw new Error(`${contract.topic} has no example to validate statement-filled fields with`);
  const example = contract.example as T;
  const candidate = { ...payload, ...Object.fromEntries(filled.map(([f]) => [f, example[f]])) };
  assertValid(contract, candidate);

  const id = opts.eventId ?? randomUUID();
  const table = `${quoteSchema(schema)}.outbox`;
  // Taken now, in the work that prepares the event (the statement runs in the same request or message).
  const trace = activeTraceContext();
  const requestId = requestIdOf(opts);
  const keyExpr = fromRow?.[contract.key as F];
  const select = (bind: BindParam, from: string) => {
    const payloadSql = filled.length
      ? `${bind(JSON.stringify(payload))}::jsonb || jsonb_build_object(${filled
          .map(([field, expr]) => `${bind(field)}::text, ${expr}`)
          .join(', ')})`
      : `${bind(JSON.stringify(payload))}::jsonb`;
    const aggregateId = keyExpr ? `(${keyExpr})::text` : bind(contract.keyOf(candidate as T));
    return `SELECT ${bind(id)}::uuid, ${bind(contract.topic)}, ${bind(contract.eventType)},
    ${bind(contract.schemaVersion)}::int, ${bind(contract.aggregateType)}, ${aggregateId},
    ${bind(opts.tenantId ?? null)}::text, ${bind(requestId)}::text, ${payloadSql},
    ${bind(trace && JSON.stringify(trace))}::jsonb${from}`;
  };
  return {
    id,
    selectSql: (bind) => select(bind, ''),
    insertSql(bind, source) {
      return `INSERT INTO ${table}
    (id, topic, event_type, schema_version, aggregate_type, aggregate_id, tenant_id, request_id, payload,
     trace_context)
  ${select(bind, source ? `\n  FROM ${source}` : '')}
  RETURNING id, pg_notify(${bind(OUTBOX_CHANNEL)}, ${bind(schema)})`;
    },
  };
}
