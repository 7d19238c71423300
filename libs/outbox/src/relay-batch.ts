import { contractFor, violations, EventHeader } from '@platform/messaging';
import { traceFields } from './trace-context';

/** An outbox row as the relay claims it. */
export interface OutboxRow {
  seq: string;
  id: string;
  topic: string;
  event_type: string;
  schema_version: number;
  aggregate_type: string;
  aggregate_id: string;
  tenant_id: string | null;
  request_id: string | null;
  payload: unknown;
  /** created_at as `Date.prototype.toISOString` writes it, formatted by the claim's SELECT. */
  occurred_at: string;
  attempts: number;
  failures: number;
  /** W3C trace context of the work that wrote the row (migrations `outboxTraceContextMigration`). */
  trace_context?: unknown;
}

export interface RelayMessage {
  key: string;
  value: string;
  headers: Record<string, string>;
}

/** Failures that are about the message itself, not the broker being away. */
export class PoisonError extends Error {}

export function isTransient(err: unknown): boolean {
  if (err instanceof PoisonError) return false;
  const e = err as { retriable?: boolean; name?: string; cause?: unknown; originalError?: unknown };
  if (e?.name === 'KafkaJSConnectionError' || e?.name === 'KafkaJSRequestTimeoutError') return true;
  if (e?.name === 'KafkaJSNumberOfRetriesExceeded' || e?.name === 'KafkaJSNonRetriableError') {
    const inner = e.cause ?? e.originalError;
    return inner ? isTransient(inner) : true;
  }
  if (e?.name === 'KafkaJSProtocolError') return e.retriable === true;
  return e?.retriable === true;
}

export function aggregateKey(r: Pick<OutboxRow, 'aggregate_type' | 'aggregate_id'>): string {
  return `${r.aggregate_type}\u0000${r.aggregate_id}`;
}

export function toMessage(row: OutboxRow): RelayMessage {
  const headers: Record<string, string> = {
    [EventHeader.EventId]: row.id,
    [EventHeader.EventType]: row.event_type,
    [EventHeader.SchemaVersion]: String(row.schema_version),
    [EventHeader.AggregateType]: row.aggregate_type,
    [EventHeader.OccurredAt]: row.occurred_at,
    [EventHeader.ContentType]: 'application/json',
  };
  if (row.tenant_id) headers[EventHeader.TenantId] = row.tenant_id;
  if (row.request_id) headers[EventHeader.RequestId] = row.request_id;
  // As stored, whether or not the relay traces: a consumer then continues the writer's trace.
  Object.assign(headers, traceFields(row.trace_context));
  return { key: row.aggregate_id, value: JSON.stringify(row.payload), headers };
}

/** A row and the message it becomes. */
export interface Outgoing {
  row: OutboxRow;
  message: RelayMessage;
}

/**
 * Splits messages (in order) into runs that stay under `maxBytes` together, so that one produce request
 * never outgrows the broker's limit (Kafka's message.max.bytes, 1 MB by default, applies to one
 * partition's batch, and a run may land on one partition). A message larger than `maxBytes` is a run of
 * its own, which the broker may refuse like any oversized message.
 */
export function chunkByBytes(outgoing: Outgoing[], maxBytes: number): Outgoing[][] {
  const chunks: Outgoing[][] = [];
  let current: Outgoing[] = [];
  let bytes = 0;
  for (const o of outgoing) {
    const m = o.message;
    let size = m.key.length + Buffer.byteLength(m.value) + 64;
    for (const k in m.headers) size += k.length + m.headers[k].length + 8;
    if (current.length && bytes + size > maxBytes) {
      chunks.push(current);
      current = [];
      bytes = 0;
    }
    current.push(o);
    bytes += size;
  }
  if (current.length) chunks.push(current);
  return chunks;
}

/** Groups messages by topic, keeping each topic's messages in row order (one sendBatch for all). */
export function topicMessages(outgoing: Outgoing[]): { topic: string; messages: RelayMessage[] }[] {
  const byTopic = new Map<string, RelayMessage[]>();
  for (const { row, message } of outgoing) {
    const list = byTopic.get(row.topic);
    if (list) list.push(message);
    else byTopic.set(row.topic, [message]);
  }
  return [...byTopic].map(([topic, messages]) => ({ topic, messages }));
}

/** The relay re-checks the contract: a row written around the writer must not reach consumers. */
export function contractProblem(row: OutboxRow): string | undefined {
  const contract = contractFor(row.topic);
  if (!contract) return `no contract for topic ${row.topic}`;
  if (contract.schemaVersion !== row.schema_version) {
    return `schema version ${row.schema_version} does not match ${row.topic}`;
  }
  const problems = violations(contract, row.payload);
  return problems.length ? `contract violation: ${problems.join('; ')}` : undefined;
}

export interface BatchPlan {
  /** Rows to publish, in seq order. */
  toSend: OutboxRow[];
  /** seq -> reason, for every row that fails its contract. */
  poisoned: Map<string, string>;
  /** Valid rows behind a poisoned row of their aggregate: they wait until it is dead-lettered. */
  heldBack: OutboxRow[];
  /** Aggregates with a poisoned row in this batch. */
  blocked: Set<string>;
}

/**
 * Splits a claimed batch (seq order) into what is published and what waits: a row that fails its
 * contract holds back the later rows of its aggregate. One pass, so a batch costs O(n).
 */
export function planBatch(rows: OutboxRow[], check = contractProblem): BatchPlan {
  const plan: BatchPlan = { toSend: [], poisoned: new Map(), heldBack: [], blocked: new Set() };
  for (const r of rows) {
    const problem = check(r);
    const key = aggregateKey(r);
    if (problem !== undefined) {
      plan.poisoned.set(r.seq, problem);
      plan.blocked.add(key);
    } else if (plan.blocked.has(key)) {
      plan.heldBack.push(r);
    } else {
      plan.toSend.push(r);
    }
  }
  return plan;
}
