import { SpanKind, SpanStatusCode, context, trace } from '@opentelemetry/api';
import { CalendarEventChanged, type CalendarEventChangedV1 } from '@platform/messaging';
import { runWithRequestId } from '@platform/observability';
import { startInMemoryTracing, type InMemoryTracing } from '@platform/observability/tracing';
import { prepareOutboxAppend } from './outbox.statement';
import { OutboxWriter } from './outbox.writer';
import { toMessage, type OutboxRow } from './relay-batch';
import { endSendSpans, startSendSpans } from './relay-tracing';
import { activeTraceContext, traceFields } from './trace-context';

const TRACE_ID = '4bf92f3577b34da6a3ce929d0e0e4736';
const WRITER_SPAN = '00f067aa0ba902b7';
const STORED = { traceparent: `00-${TRACE_ID}-${WRITER_SPAN}-01`, tracestate: 'vendor=1' };

const event = (): CalendarEventChangedV1 => ({
  eventId: '7c0b8b8e-4f6a-4b0e-9a5e-2f1d2c3b4a59',
  accountId: 'acme',
  productId: 'crm',
  entityType: 'deal',
  entityId: 'D-1',
  version: 2,
  title: 'Review',
  startsAt: null,
  endsAt: null,
  status: 'confirmed',
  changedAt: '2026-11-20T09:15:02.120Z',
});

const row = (seq: number, trace_context: unknown): OutboxRow => ({
  seq: String(seq),
  id: `id-${seq}`,
  topic: 'calendar.event.changed.v1',
  event_type: 'calendar.event.changed',
  schema_version: 1,
  aggregate_type: 'calendar.event',
  aggregate_id: `agg-${seq}`,
  tenant_id: null,
  request_id: null,
  payload: {},
  occurred_at: '2026-11-23T10:00:00.000Z',
  attempts: 0,
  failures: 0,
  trace_context,
});

/** The parameters of the statements a writer runs. */
function recorder() {
  const params: unknown[][] = [];
  return { params, tx: { query: async (_sql: string, p: unknown[] = []) => void params.push(p) } };
}

describe('trace context with tracing off (the default)', () => {
  it('stores none: the writer binds NULL, the relay copies nothing', async () => {
    expect(activeTraceContext()).toBeNull();
    const { params, tx } = recorder();
    await new OutboxWriter('calendar').append(tx, CalendarEventChanged, event());
    expect(params[0][11]).toBeNull();
    expect(toMessage(row(1, null)).headers).not.toHaveProperty('traceparent');
  });

  it("still passes a stored context on to the consumer (the writer's process may trace when the relay does not)", () => {
    const outgoing = [{ row: row(1, STORED), message: toMessage(row(1, STORED)) }];
    const spans = startSendSpans('calendar', outgoing);
    endSendSpans(spans, new Set(['1']), new Map());
    expect(outgoing[0].message.headers).toMatchObject(STORED);
  });
});

describe('trace context with tracing on', () => {
  let tracing: InMemoryTracing;
  beforeAll(() => {
    tracing = startInMemoryTracing();
  });
  afterAll(() => tracing.shutdown());
  beforeEach(() => tracing.reset());

  const inSpan = <T>(work: () => Promise<T> | T): Promise<T> => {
    const span = trace.getTracer('test').startSpan('request');
    return Promise.resolve(context.with(trace.setSpan(context.active(), span), work)).finally(() =>
      span.end(),
    );
  };

  it('OutboxWriter stores the active span as the row trace context', async () => {
    const { params, tx } = recorder();
    let expected = '';
    await inSpan(async () => {
      const { traceId, spanId } = trace.getActiveSpan()?.spanContext() ?? { traceId: 'none', spanId: 'none' };
      expected = `00-${traceId}-${spanId}-01`;
      await new OutboxWriter('calendar').append(tx, CalendarEventChanged, event());
    });
    expect(JSON.parse(params[0][11] as string)).toEqual({ traceparent: expected });
  });

  it('a prepared statement binds the context active when it was prepared', async () => {
    const bound: unknown[] = [];
    let expected = '';
    const append = await inSpan(() => {
      expected = (trace.getActiveSpan()?.spanContext() ?? { traceId: 'none', spanId: 'none' }).spanId;
      return prepareOutboxAppend('calendar', CalendarEventChanged, event());
    });
    const sql = append.insertSql((v) => `$${bound.push(v)}`);
    const traceParam = bound.find((v) => typeof v === 'string' && v.includes('traceparent')) as string;
    expect(JSON.parse(traceParam).traceparent).toContain(`-${expected}-01`);
    expect(sql).toMatch(/\$\d+::jsonb\n {2}RETURNING/);
  });

  it('outside any span there is nothing to store', () => {
    expect(activeTraceContext()).toBeNull();
  });

  it('the relay sends each message in a PRODUCER span under the stored context and puts its own in the headers', () => {
    const outgoing = [1, 2].map((n) => ({ row: row(n, STORED), message: toMessage(row(n, STORED)) }));
    const spans = startSendSpans('calendar', outgoing);
    endSendSpans(spans, new Set(['1']), new Map([['2', 'broker unavailable']]));

    const [sent, failed] = tracing.spans();
    expect(sent.name).toBe('send calendar.event.changed.v1');
    expect(sent.kind).toBe(SpanKind.PRODUCER);
    expect(sent.spanContext().traceId).toBe(TRACE_ID);
    expect(sent.parentSpanContext?.spanId).toBe(WRITER_SPAN);
    expect(sent.attributes).toMatchObject({
      'messaging.destination.name': 'calendar.event.changed.v1',
      'messaging.message.id': 'id-1',
      'platform.outbox.schema': 'calendar',
    });
    expect(sent.status.code).not.toBe(SpanStatusCode.ERROR);
    expect(failed.status).toEqual({ code: SpanStatusCode.ERROR, message: 'broker unavailable' });
    // The consumer's parent is the send, in the same trace; the vendor's tracestate rides along.
    expect(outgoing[0].message.headers.traceparent).toBe(`00-${TRACE_ID}-${sent.spanContext().spanId}-01`);
    expect(outgoing[0].message.headers.tracestate).toBe('vendor=1');
  });
});

describe('traceFields', () => {
  it('keeps traceparent and tracestate only, as non-empty strings of bounded length', () => {
    expect(
      traceFields({ ...STORED, baggage: 'user=1', 'x-evil': 'y', tracestate: 'a'.repeat(2000) }),
    ).toEqual({ traceparent: STORED.traceparent });
    expect(traceFields({ traceparent: 7 })).toEqual({});
    expect(traceFields('00-abc')).toEqual({});
    expect(toMessage(row(1, { ...STORED, 'event-id': 'forged' })).headers['event-id']).toBe('id-1');
  });
});

describe('request id of an event', () => {
  it('is the running request when the writer names none; one given (or null) wins', async () => {
    const { params, tx } = recorder();
    const writer = new OutboxWriter('calendar');
    await runWithRequestId('req-1', async () => {
      await writer.append(tx, CalendarEventChanged, event());
      await writer.append(tx, CalendarEventChanged, event(), { requestId: 'req-given' });
      await writer.append(tx, CalendarEventChanged, event(), { requestId: null });
    });
    await writer.append(tx, CalendarEventChanged, event());
    expect(params.map((p) => p[7])).toEqual(['req-1', 'req-given', null, null]);
  });

  it('a prepared statement binds the request running when it was prepared', () => {
    const append = runWithRequestId('req-2', () =>
      prepareOutboxAppend('calendar', CalendarEventChanged, event()),
    );
    const bound: unknown[] = [];
    append.insertSql((v) => `$${bound.push(v)}`);
    expect(bound).toContain('req-2');
  });
});
