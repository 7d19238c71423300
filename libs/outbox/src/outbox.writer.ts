import { randomUUID } from 'node:crypto';
import { assertValid, type TopicContract } from '@platform/messaging';
import { currentRequestId } from '@platform/observability';
import { OUTBOX_CHANNEL, quoteSchema, type Queryable } from './sql';
import { activeTraceContext } from './trace-context';

export interface AppendOptions {
  tenantId?: string | null;
  /**
   * The `request-id` header. Defaults to the request whose work is running (libs/observability
   * `currentRequestId`: the HTTP request, or the request that caused the message a consumer handles),
   * so every event a request causes names it; `null` writes none.
   */
  requestId?: string | null;
  /** Defaults to a new UUID; the consumer's inbox dedupes on it. */
  eventId?: string;
}

/**
 * Appends an event to the service's outbox inside the caller's transaction, so the business row and
 * the event commit or roll back together. The payload is validated against its contract here, at the
 * producing side, so a bad event fails the business write instead of poisoning the topic. The row keeps
 * the active trace context (W3C traceparent/tracestate) and the request id, which the relay puts in the
 * message headers.
 */
export class OutboxWriter {
  private readonly table: string;

  constructor(private readonly schema: string) {
    this.table = `${quoteSchema(schema)}.outbox`;
  }

  async append<T>(
    tx: Queryable,
    contract: TopicContract<T>,
    payload: T,
    opts: AppendOptions = {},
  ): Promise<string> {
    assertValid(contract, payload);
    const id = opts.eventId ?? randomUUID();
    const trace = activeTraceContext();
    // One round trip: the insert, and a NOTIFY that PostgreSQL delivers only if the transaction commits.
    await tx.query(
      `WITH appended AS (
         INSERT INTO ${this.table}
           (id, topic, event_type, schema_version, aggregate_type, aggregate_id, tenant_id, request_id, payload,
            trace_context)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $12::jsonb) RETURNING 1)
       SELECT pg_notify($10, $11) FROM appended`,
      [
        id,
        contract.topic,
        contract.eventType,
        contract.schemaVersion,
        contract.aggregateType,
        contract.keyOf(payload),
        opts.tenantId ?? null,
        requestIdOf(opts),
        JSON.stringify(payload),
        OUTBOX_CHANNEL,
        this.schema,
        trace && JSON.stringify(trace),
      ],
    );
    return id;
  }
}

/** The request id an event is written with: the one given, else the running request's. */
export function requestIdOf(opts: AppendOptions): string | null {
  return opts.requestId === undefined ? currentRequestId() : opts.requestId;
}
