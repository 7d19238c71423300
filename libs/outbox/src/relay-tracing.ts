import { SpanKind, SpanStatusCode, propagation, trace, type Span } from '@opentelemetry/api';
import type { Outgoing } from './relay-batch';
import { contextFrom } from './trace-context';

const tracer = trace.getTracer('@platform/outbox');

/**
 * One PRODUCER span per message, a child of the trace context its outbox row stored (a new trace when
 * the writer did not trace), whose context then replaces the stored one in the message's headers: the
 * consumer's span becomes the child of this send. With tracing off in the relay the API is a no-op and
 * the headers keep the stored context, so the consumer still continues the writer's trace.
 */
export function startSendSpans(schema: string, outgoing: readonly Outgoing[]): Map<string, Span> {
  const spans = new Map<string, Span>();
  for (const { row, message } of outgoing) {
    const parent = contextFrom(message.headers);
    const span = tracer.startSpan(
      `send ${row.topic}`,
      {
        kind: SpanKind.PRODUCER,
        attributes: {
          'messaging.system': 'kafka',
          'messaging.operation.type': 'send',
          'messaging.operation.name': 'send',
          'messaging.destination.name': row.topic,
          'messaging.message.id': row.id,
          'messaging.kafka.message.key': row.aggregate_id,
          'platform.outbox.schema': schema,
          'platform.outbox.attempt': row.attempts + 1,
        },
      },
      parent,
    );
    propagation.inject(trace.setSpan(parent, span), message.headers);
    spans.set(row.seq, span);
  }
  return spans;
}

/** Ends each span: sent, or failed with the reason (broker away, or the broker refused the message). */
export function endSendSpans(
  spans: Map<string, Span>,
  sent: ReadonlySet<string>,
  failures: ReadonlyMap<string, string>,
): void {
  for (const [seq, span] of spans) {
    if (!sent.has(seq)) {
      span.setStatus({ code: SpanStatusCode.ERROR, message: failures.get(seq) ?? 'not sent' });
    }
    span.end();
  }
}
