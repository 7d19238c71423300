import { ROOT_CONTEXT, context, propagation, type Context } from '@opentelemetry/api';

/**
 * The W3C trace context fields an outbox row keeps and its Kafka message carries. Baggage is not
 * kept: it is whatever a caller sent, and it would be stored with every event and sent to every
 * consumer.
 */
export const TRACE_FIELDS = ['traceparent', 'tracestate'] as const;
export type TraceField = (typeof TRACE_FIELDS)[number];
export type TraceCarrier = Partial<Record<TraceField, string>>;

/** Longest value kept per field: a traceparent is 55 characters, a tracestate at most 32 short members. */
const MAX_FIELD_CHARS = 1024;

/**
 * The active trace context (the HTTP request or message being handled) as W3C fields, for the outbox
 * row written in that work, so the relay, another process, continues the same trace. Null when
 * tracing is off in this process (the API's propagator is then a no-op) or nothing is being traced.
 */
export function activeTraceContext(ctx: Context = context.active()): TraceCarrier | null {
  const carrier: Record<string, string> = {};
  propagation.inject(ctx, carrier);
  const kept = traceFields(carrier);
  return kept.traceparent ? kept : null;
}

/** The trace fields of a stored value or a header map, checked: anything else is dropped. */
export function traceFields(value: unknown): TraceCarrier {
  const out: TraceCarrier = {};
  if (!value || typeof value !== 'object') return out;
  const record = value as Record<string, unknown>;
  for (const field of TRACE_FIELDS) {
    const v = record[field];
    if (typeof v === 'string' && v.length > 0 && v.length <= MAX_FIELD_CHARS) out[field] = v;
  }
  return out;
}

/** The context a stored or received trace context continues (the root context when there is none). */
export function contextFrom(carrier: Record<string, string> | TraceCarrier): Context {
  return propagation.extract(ROOT_CONTEXT, carrier);
}
