import { randomUUID } from 'node:crypto';
import { SpanKind, SpanStatusCode, trace, type SpanContext } from '@opentelemetry/api';
import { defineContract, type EventOf } from '@platform/messaging';
import { currentRequestId } from '@platform/observability';
import { startInMemoryTracing, type InMemoryTracing } from '@platform/observability/tracing';
import type { Inbox, InboxOutcome, Queryable } from '@platform/outbox';
import type { ContractHandler } from './contract-handler';
import { ConsumerMetrics } from './consumer.metrics';
import type { OriginalMessage } from './dead-letter';
import { DeliveryProcessor, type Route } from './delivery-processor';

const Note = defineContract({
  topic: 'test.traced-note.written.v1',
  eventType: 'test.traced-note.written',
  schemaVersion: 1,
  aggregateType: 'test.note',
  key: 'noteId',
  schema: { noteId: { type: 'string' }, text: { type: 'string', maxLength: 20 } },
});
type NoteV1 = EventOf<typeof Note>;

const TRACE_ID = '4bf92f3577b34da6a3ce929d0e0e4736';
const SENDER_SPAN = '00f067aa0ba902b7';

class Inboxed implements Pick<Inbox, 'handleOnce'> {
  async handleOnce<R>(
    _id: string,
    _topic: string,
    effect: (tx: Queryable) => Promise<R>,
  ): Promise<InboxOutcome<R>> {
    return { duplicate: false, result: await effect({ query: async () => undefined }) };
  }
}

function processor(handle: (e: NoteV1) => Promise<void>): DeliveryProcessor {
  const route: Route = {
    contract: Note as Route['contract'],
    handler: { handle } as unknown as ContractHandler<unknown, never>,
    retry: { attempts: 1, baseMs: 1, maxMs: 1 },
  };
  return new DeliveryProcessor({
    group: 'svc.traced',
    routes: new Map([[Note.topic, route]]),
    inbox: new Inboxed(),
    deadLetter: async () => undefined,
    metrics: new ConsumerMetrics(),
  });
}

function message(headers: Record<string, string>): OriginalMessage {
  return {
    topic: Note.topic,
    partition: 1,
    offset: '42',
    key: Buffer.from('n-1'),
    value: Buffer.from(JSON.stringify({ noteId: 'n-1', text: 'hi' })),
    headers: { 'event-id': randomUUID(), ...headers },
  };
}

const control = () => ({ heartbeat: async () => undefined, signal: new AbortController().signal });

describe('DeliveryProcessor traces', () => {
  let tracing: InMemoryTracing;
  beforeAll(() => {
    tracing = startInMemoryTracing();
  });
  afterAll(() => tracing.shutdown());
  beforeEach(() => tracing.reset());

  it("handles a message in a CONSUMER span that is the child of the headers' trace context", async () => {
    let inHandler: SpanContext | undefined;
    const m = message({ traceparent: `00-${TRACE_ID}-${SENDER_SPAN}-01`, tracestate: 'vendor=1' });
    await processor(async () => {
      inHandler = trace.getActiveSpan()?.spanContext();
    }).process(m, control());

    const [span] = tracing.spans();
    expect(span.name).toBe(`process ${Note.topic}`);
    expect(span.kind).toBe(SpanKind.CONSUMER);
    expect(span.spanContext().traceId).toBe(TRACE_ID);
    expect(span.parentSpanContext?.spanId).toBe(SENDER_SPAN);
    expect(span.parentSpanContext?.isRemote).toBe(true);
    expect(span.spanContext().traceState?.get('vendor')).toBe('1');
    expect(span.attributes).toMatchObject({
      'messaging.system': 'kafka',
      'messaging.destination.name': Note.topic,
      'messaging.consumer.group.name': 'svc.traced',
      'messaging.kafka.offset': 42,
      'messaging.message.id': (m.headers as Record<string, string>)['event-id'],
      'platform.delivery.outcome': 'handled',
    });
    // The handler (its statements, the events it writes) runs inside that span.
    expect(inHandler?.spanId).toBe(span.spanContext().spanId);
  });

  it('starts no trace for a message without trace headers (direct heartbeats), and still handles it', async () => {
    let handled = false;
    const report = await processor(async () => {
      handled = trace.getActiveSpan() === undefined;
    }).process(message({ traceparent: 'not-a-traceparent' }), control());
    expect(report.outcome).toBe('handled');
    expect(handled).toBe(true);
    expect(tracing.spans()).toEqual([]);
  });

  it('marks a dead-lettered delivery as an error', async () => {
    await processor(async () => {
      throw new Error('boom');
    }).process(message({ traceparent: `00-${TRACE_ID}-${SENDER_SPAN}-01` }), control());
    const [span] = tracing.spans();
    expect(span.status.code).toBe(SpanStatusCode.ERROR);
    expect(span.attributes['platform.delivery.outcome']).toBe('dead-lettered');
  });
});

describe('DeliveryProcessor request id', () => {
  it("runs the handler as the work of the message's request-id, traced or not", async () => {
    const seen: (string | null)[] = [];
    const p = processor(async () => void seen.push(currentRequestId()));
    await p.process(message({ 'request-id': 'req-9' }), control());
    await p.process(message({}), control());
    expect(seen).toEqual(['req-9', null]);
    expect(currentRequestId()).toBeNull();
  });
});
