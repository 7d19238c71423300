import { resolve } from 'node:path';
import { launchSystem, runAdmin, type RunningSystem } from '@platform/dev-infra';
import { TopicCollector, createTestDatabase, request } from '@platform/testing';

const DIST = resolve(__dirname, '../../../../dist');
const CASE_TOPIC = 'verification.case.status-changed.v1';
const ORG = 'org-untraced';

type Env<T = unknown> = { success: boolean; code: number; error: string | null; value: T };

/**
 * Tracing off (no OTEL_* setting, the default): no span is recorded anywhere, but a caller's W3C
 * context is carried as it came, gateway -> verification -> outbox -> relay -> Kafka, so a consumer can
 * still join the caller's trace; every event names its request either way. An independent kafkajs
 * reader checks the headers any consumer sees.
 */
describe('with tracing off, the caller’s traceparent still reaches Kafka, and the request id always', () => {
  let db: Awaited<ReturnType<typeof createTestDatabase>>;
  let system: RunningSystem;
  let reader: TopicCollector;
  let lender: Record<string, string>;
  const verificationLog: Record<string, unknown>[] = [];

  beforeAll(async () => {
    db = await createTestDatabase('e2e_tracing_off');
    const kafkaBrokers = process.env.KAFKA_BROKERS as string;
    reader = await TopicCollector.start([CASE_TOPIC], kafkaBrokers);
    system = await launchSystem({
      distDir: DIST,
      databaseUrl: db.url,
      kafkaBrokers,
      ports: 'free',
      nodeEnv: 'test',
      env: { KAFKA_CONSUMER_MAX_WAIT_MS: '100', RELAY_POLL_INTERVAL_MS: '200', LOG_LEVEL: 'warn' },
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
    runAdmin(DIST, 'verification', ['create-organization', ORG, 'Untraced Bank'], env);
    const key = runAdmin(DIST, 'verification', ['issue-key', ORG, 'untraced e2e'], env) as { token: string };
    lender = { 'X-API-Key': key.token, 'Service-Organization-Id': ORG };
  }, 180000);

  afterAll(async () => {
    await reader?.stop();
    await system?.stop();
    await db?.drop();
  });

  const createCase = async (ref: string, extra: Record<string, string> = {}) => {
    const res = await request<Env<{ id: string }>>(`${system.gatewayUrl}/api/v1/verification-cases`, {
      headers: { ...lender, 'Accept-Language': 'en', 'Idempotency-Key': `untraced-${ref}`, ...extra },
      body: {
        externalReferenceId: ref,
        applicantType: 'Individual',
        applicantCountryCode: 'KZ',
        reportCountryCode: 'KZ',
        applicantName: 'Anna Maria Eriksson',
        applicantBirthDate: '1974-08-12',
      },
    });
    expect([res.status, res.body.error]).toEqual([201, null]);
    const requestId = res.headers.get('x-request-id') as string;
    const [message] = await reader.waitFor((m) => m.key === res.body.value.id);
    return { requestId, message };
  };

  it("carries a caller's traceparent unchanged to the Kafka headers, with the request id", async () => {
    const traceparent = '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01';
    const traced = await Promise.all(
      ['UNTRACED-1', 'UNTRACED-2', 'UNTRACED-3'].map((ref) => createCase(ref, { traceparent })),
    );
    for (const { requestId, message } of traced)
      expect(message.headers).toMatchObject({ traceparent, 'request-id': requestId });
    // The service's request line names the caller's trace, though nothing is recorded.
    const logged = verificationLog.find((l) => l.requestId === traced[0].requestId);
    expect(logged).toMatchObject({ traceId: '0af7651916cd43dd8448eb211c80319c', spanId: 'b7ad6b7169203331' });
  });

  it('makes up no trace for a request that sent none, and still names the request', async () => {
    const { requestId, message } = await createCase('UNTRACED-4');
    expect(message.headers['request-id']).toBe(requestId);
    expect(message.headers).not.toHaveProperty('traceparent');
  });
});
