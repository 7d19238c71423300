import { resolve } from 'node:path';
import { launchSystem, runAdmin, type RunningSystem } from '@platform/dev-infra';
import {
  OtlpReceiver,
  OtlpSpanKind,
  TopicCollector,
  createTestDatabase,
  request,
  spawnTsProcess,
  withClient,
  type JsonLineProcess,
  type ReceivedSpan,
} from '@platform/testing';

const DIST = resolve(__dirname, '../../../../dist');
const TOPIC = 'calendar.event.changed.v1';
const CASE_TOPIC = 'verification.case.status-changed.v1';
/** Every topic the requests below can cause an event on: the independent reader counts them all. */
const OUTBOX_TOPICS = [
  TOPIC,
  'calendar.event.removed.v1',
  CASE_TOPIC,
  'verification.document.uploaded.v1',
  'verification.document.status-changed.v1',
  'verification.manual-review.status-changed.v1',
  'verification.summary.generated.v1',
];
const ORG = 'org-tracing';
const TRACEPARENT = /^00-([0-9a-f]{32})-([0-9a-f]{16})-01$/;

type Env<T = unknown> = { success: boolean; code: number; error: string | null; value: T };

/**
 * One request is one trace across processes: the built apps export their spans over OTLP/HTTP to a
 * receiver started here, configured only by the standard variables (OTEL_EXPORTER_OTLP_ENDPOINT,
 * OTEL_BSP_SCHEDULE_DELAY), and a consumer process (libs/consumer) exports its own. The request carries
 * no trace context of its own: the gateway starts the trace, the calendar continues it from the
 * proxied `traceparent`, its outbox row stores it, the relay's send continues it from the row and puts
 * its own context in the Kafka headers, and the consumer's handling span is that send's child. A second
 * request, to verification, comes with the caller's own `traceparent`: its trace continues the caller's.
 * An independent kafkajs reader checks what any consumer sees: every message the requests caused
 * carries `traceparent` and the request's `request-id`; the services' log lines carry the trace ids.
 */
describe('traces across the gateway, a service, the outbox, Kafka and a consumer', () => {
  const receiver = new OtlpReceiver();
  let db: Awaited<ReturnType<typeof createTestDatabase>>;
  let system: RunningSystem;
  let consumer: JsonLineProcess;
  let calendar: { accountId: string; productId: string; apiKey: string };
  let lender: Record<string, string>;
  let reader: TopicCollector;
  /** The JSON lines verification wrote (LOG_FORMAT=json). */
  const verificationLog: Record<string, unknown>[] = [];
  /** request id -> what the requests of this file answered with, to match the messages they caused. */
  const requestIds: string[] = [];

  beforeAll(async () => {
    const endpoint = await receiver.start();
    db = await createTestDatabase('e2e_tracing');
    const kafkaBrokers = process.env.KAFKA_BROKERS as string;
    const otel = { OTEL_EXPORTER_OTLP_ENDPOINT: endpoint, OTEL_BSP_SCHEDULE_DELAY: '100' };
    reader = await TopicCollector.start(OUTBOX_TOPICS, kafkaBrokers);
    system = await launchSystem({
      distDir: DIST,
      databaseUrl: db.url,
      kafkaBrokers,
      ports: 'free',
      nodeEnv: 'test',
      env: { ...otel, KAFKA_CONSUMER_MAX_WAIT_MS: '100', RELAY_POLL_INTERVAL_MS: '200', LOG_LEVEL: 'warn' },
      // Verification's request lines, as production writes them.
      appEnv: { verification: { LOG_FORMAT: 'json', LOG_LEVEL: 'log' } },
      onOutput: (app, line) => {
        if (app !== 'verification' || !line.startsWith('{')) return;
        try {
          verificationLog.push(JSON.parse(line) as Record<string, unknown>);
        } catch {
          /* a line cut by the pipe: not one the test looks for */
        }
      },
    });
    const env = { DATABASE_URL: db.url, KAFKA_BROKERS: kafkaBrokers, NODE_ENV: 'test' };
    calendar = runAdmin(DIST, 'calendar', ['seed-demo'], env) as typeof calendar;
    runAdmin(DIST, 'verification', ['create-organization', ORG, 'Tracing Bank'], env);
    const key = runAdmin(DIST, 'verification', ['issue-key', ORG, 'tracing e2e'], env) as { token: string };
    lender = { 'X-API-Key': key.token, 'Service-Organization-Id': ORG };
    consumer = spawnTsProcess('libs/testing/src/fixtures/inbox-consumer.main.ts', {
      ...env,
      ...otel,
      OTEL_SERVICE_NAME: 'test-consumer',
      CONSUMER_SCHEMA: 'tracing_consumer',
      CONSUMER_GROUP: 'tracing-test-consumer',
      CONSUMER_TOPICS: CASE_TOPIC,
      KAFKA_CONSUMER_MAX_WAIT_MS: '100',
      KAFKA_SESSION_TIMEOUT_MS: '6000',
    });
    await consumer.waitForLine((l) => l.ready === true, 60000);
  }, 180000);

  afterAll(async () => {
    await reader?.stop();
    await consumer?.stop();
    await system?.stop();
    await receiver.stop();
    await db?.drop();
  });

  it("follows one request's trace id from the HTTP call through the outbox and Kafka to the consumer", async () => {
    const res = await request<Env<{ id: string }>>(`${system.gatewayUrl}/Calendar/upsert`, {
      headers: {
        API_KEY: calendar.apiKey,
        AccountId: calendar.accountId,
        ProductId: calendar.productId,
      },
      body: {
        entity_type: 'meeting',
        entity_id: 'TRACE-1',
        title: 'Traced',
        start: { date_time: '2026-12-01T09:00:00Z' },
      },
    });
    expect(res.status).toBe(201);
    const requestId = res.headers.get('x-request-id') as string;
    expect(requestId).toBeTruthy();
    requestIds.push(requestId);

    // The gateway's server span for this request (found by the request id it answered with) is the root.
    const gatewayServer = await receiver.waitFor((spans) =>
      spans.find(
        (s) =>
          s.service === 'gateway' &&
          s.kind === OtlpSpanKind.SERVER &&
          (s.attributes['http.response.header.x-request-id'] as string[] | undefined)?.[0] === requestId,
      ),
    );
    expect(gatewayServer.parentSpanId).toBe('');
    const traceId = gatewayServer.traceId;
    const inTrace = (spans: ReceivedSpan[], service: string, kind: number, name?: string) =>
      spans.find(
        (s) =>
          s.traceId === traceId && s.service === service && s.kind === kind && (!name || s.name === name),
      );

    // The proxy's call to the calendar, and the calendar's server span under it (traceparent propagated).
    const proxyCall = await receiver.waitFor((spans) => inTrace(spans, 'gateway', OtlpSpanKind.CLIENT));
    expect(proxyCall.parentSpanId).toBe(gatewayServer.spanId);
    const calendarServer = await receiver.waitFor((spans) => inTrace(spans, 'calendar', OtlpSpanKind.SERVER));
    expect(calendarServer.parentSpanId).toBe(proxyCall.spanId);

    // The calendar's statements are spans of the same trace, the outbox insert among them.
    const outboxInsert = await receiver.waitFor((spans) =>
      spans.find(
        (s) =>
          s.traceId === traceId &&
          s.service === 'calendar' &&
          s.kind === OtlpSpanKind.CLIENT &&
          /INSERT INTO "calendar"\.outbox/.test(
            String(s.attributes['db.query.text'] ?? s.attributes['db.statement']),
          ),
      ),
    );
    expect(outboxInsert.attributes['db.system.name'] ?? outboxInsert.attributes['db.system']).toBe(
      'postgresql',
    );

    // The outbox row kept the calendar's context: same trace, the calendar's server span as parent.
    const row = await withClient(db.url, (c) =>
      c.query<{ id: string; trace_context: { traceparent: string } }>(
        `SELECT id, trace_context FROM calendar.outbox WHERE aggregate_id = $1`,
        [res.body.value.id],
      ),
    );
    expect(row.rows).toHaveLength(1);
    const eventId = row.rows[0].id;
    expect(row.rows[0].trace_context.traceparent).toBe(`00-${traceId}-${calendarServer.spanId}-01`);

    // The relay, another process, continues that trace when it publishes...
    const send = await receiver.waitFor((spans) =>
      spans.find(
        (s) =>
          s.service === 'outbox-relay' &&
          s.kind === OtlpSpanKind.PRODUCER &&
          s.attributes['messaging.message.id'] === eventId,
      ),
    );
    expect(send).toMatchObject({ traceId, parentSpanId: calendarServer.spanId, name: `send ${TOPIC}` });
    expect(send.attributes['messaging.destination.name']).toBe(TOPIC);

    // ...and the consumer's handling span is the child of the context in the message's headers.
    await consumer.waitForLine((l) => l.eventId === eventId);
    const handling = await receiver.waitFor((spans) =>
      spans.find(
        (s) =>
          s.service === 'test-consumer' &&
          s.kind === OtlpSpanKind.CONSUMER &&
          s.attributes['messaging.message.id'] === eventId,
      ),
    );
    expect(handling).toMatchObject({ traceId, parentSpanId: send.spanId, name: `process ${TOPIC}` });
    expect(handling.attributes['platform.delivery.outcome']).toBe('handled');
    // The consumer's own statements (inbox row and effect) are children of its handling span.
    const inboxInsert = await receiver.waitFor((spans) =>
      spans.find(
        (s) =>
          s.service === 'test-consumer' &&
          s.parentSpanId === handling.spanId &&
          /inbox/.test(String(s.attributes['db.query.text'] ?? s.attributes['db.statement'])),
      ),
    );
    expect(inboxInsert.traceId).toBe(traceId);

    // What any consumer reads: the send's context and the request's id in the message headers.
    const [message] = await reader.waitFor((m) => m.headers['event-id'] === eventId);
    expect(message.headers).toMatchObject({
      traceparent: `00-${traceId}-${send.spanId}-01`,
      'request-id': requestId,
    });
  });

  it("continues a caller's trace through verification, the outbox, Kafka and a consumer, with the request id", async () => {
    // The caller's own trace context: everything below joins its trace.
    const callerTrace = '0af7651916cd43dd8448eb211c80319c';
    const callerSpan = 'b7ad6b7169203331';
    const res = await request<Env<{ id: string }>>(`${system.gatewayUrl}/api/v1/verification-cases`, {
      headers: {
        ...lender,
        traceparent: `00-${callerTrace}-${callerSpan}-01`,
        'Accept-Language': 'en',
        'Idempotency-Key': 'tracing-case-1',
      },
      body: {
        externalReferenceId: 'TRACE-CASE-1',
        applicantType: 'Individual',
        applicantCountryCode: 'KZ',
        reportCountryCode: 'KZ',
        applicantName: 'Anna Maria Eriksson',
        applicantBirthDate: '1974-08-12',
      },
    });
    expect([res.status, res.body.error]).toEqual([201, null]);
    const requestId = res.headers.get('x-request-id') as string;
    requestIds.push(requestId);
    const caseId = res.body.value.id;
    const inCaller = (service: string, kind: number) => (spans: ReceivedSpan[]) =>
      spans.find((s) => s.traceId === callerTrace && s.service === service && s.kind === kind);

    const gatewayServer = await receiver.waitFor(inCaller('gateway', OtlpSpanKind.SERVER));
    expect(gatewayServer.parentSpanId).toBe(callerSpan);
    const proxyCall = await receiver.waitFor(inCaller('gateway', OtlpSpanKind.CLIENT));
    expect(proxyCall.parentSpanId).toBe(gatewayServer.spanId);
    const server = await receiver.waitFor(inCaller('verification', OtlpSpanKind.SERVER));
    expect(server.parentSpanId).toBe(proxyCall.spanId);

    // The case's event, as the outbox keeps it: the request's context and its id.
    const rows = await withClient(db.url, (c) =>
      c.query<{ id: string; request_id: string; trace_context: { traceparent: string } }>(
        `SELECT id, request_id, trace_context FROM verification.outbox WHERE topic = $1 AND aggregate_id = $2`,
        [CASE_TOPIC, caseId],
      ),
    );
    expect(rows.rows).toHaveLength(1);
    const [row] = rows.rows;
    expect(row.request_id).toBe(requestId);
    expect(row.trace_context.traceparent).toBe(`00-${callerTrace}-${server.spanId}-01`);

    const send = await receiver.waitFor((spans) =>
      spans.find(
        (s) =>
          s.service === 'outbox-relay' &&
          s.kind === OtlpSpanKind.PRODUCER &&
          s.attributes['messaging.message.id'] === row.id,
      ),
    );
    expect(send).toMatchObject({
      traceId: callerTrace,
      parentSpanId: server.spanId,
      name: `send ${CASE_TOPIC}`,
    });
    const handled = await receiver.waitFor((spans) =>
      spans.find(
        (s) =>
          s.service === 'test-consumer' &&
          s.kind === OtlpSpanKind.CONSUMER &&
          s.attributes['messaging.message.id'] === row.id,
      ),
    );
    expect(handled).toMatchObject({
      traceId: callerTrace,
      parentSpanId: send.spanId,
      name: `process ${CASE_TOPIC}`,
    });
    // The handler ran as the work of that request, in that trace.
    const line = await consumer.waitForLine((l) => l.handled === row.id);
    expect(line).toMatchObject({ requestId, traceId: callerTrace });

    // The independent reader sees the send's context and the request id.
    const [message] = await reader.waitFor((m) => m.headers['event-id'] === row.id);
    expect(message.topic).toBe(CASE_TOPIC);
    expect(message.headers).toMatchObject({
      traceparent: `00-${callerTrace}-${send.spanId}-01`,
      'request-id': requestId,
    });

    // Verification's request line names the request and its trace.
    const logged = verificationLog.find((l) => l.requestId === requestId && l.traceId !== undefined);
    expect(logged).toMatchObject({ traceId: callerTrace, spanId: expect.stringMatching(/^[0-9a-f]{16}$/) });
  });

  it('every message the requests caused carries traceparent and their request id', async () => {
    // This file's messages: the events its own database's outboxes hold (other files share the broker,
    // and every file that seeds the calendar demo shares its account id); the tests above waited for them.
    const written = await withClient(db.url, (c) =>
      c.query<{ id: string }>(
        `SELECT id FROM calendar.outbox WHERE tenant_id = $1
         UNION ALL SELECT id FROM verification.outbox WHERE tenant_id = $2`,
        [calendar.accountId, ORG],
      ),
    );
    const eventIds = new Set(written.rows.map((r) => r.id));
    const ours = reader.messages.filter((m) => eventIds.has(m.headers['event-id'] ?? ''));
    const traced = ours.filter((m) => TRACEPARENT.test(m.headers.traceparent ?? '')).length;
    const named = ours.filter((m) => requestIds.includes(m.headers['request-id'] ?? '')).length;
    expect(requestIds).toHaveLength(2);
    expect(ours.length).toBeGreaterThanOrEqual(2);
    expect({ traced, named }).toEqual({ traced: ours.length, named: ours.length });
  });

  it('traces no health probe, through the gateway or not', async () => {
    const ready = await request(`${system.gatewayUrl}/health/calendar/ready`);
    expect(ready.status).toBe(200);
    const probeId = ready.headers.get('x-request-id');
    // A request after the probe, traced: once its span is in, the probe's would be too (exports keep order).
    const refused = await request(`${system.gatewayUrl}/Calendar/upsert`, { body: {} });
    expect(refused.status).toBe(401);
    const refusedId = refused.headers.get('x-request-id');
    await receiver.waitFor((spans) =>
      spans.find(
        (s) =>
          s.service === 'gateway' &&
          (s.attributes['http.response.header.x-request-id'] as string[] | undefined)?.[0] === refusedId,
      ),
    );
    const health = receiver.spans.filter(
      (s) =>
        (s.attributes['http.response.header.x-request-id'] as string[] | undefined)?.[0] === probeId ||
        String(s.attributes['url.path'] ?? '').startsWith('/health') ||
        String(s.attributes['url.full'] ?? '').includes('/health'),
    );
    expect(health).toEqual([]);
  });
});
