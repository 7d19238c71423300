import { randomBytes } from 'node:crypto';
import type { INestApplication } from '@nestjs/common';
import { freePort } from '@platform/dev-infra';
import { TenancyAdminService } from '@platform/tenancy';
import {
  createTestDatabase,
  listen,
  request,
  serviceEnv,
  spawnTsProcess,
  type JsonLineProcess,
} from '@platform/testing';
import { createVerificationApp } from '../../src/bootstrap';

/** The value of one series in a Prometheus text answer, or undefined when it is not there. */
function sample(text: string, series: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

describe('verification observability: /metrics and the request log (real PostgreSQL)', () => {
  let db: Awaited<ReturnType<typeof createTestDatabase>>;
  let app: INestApplication;
  let base: string;
  let key: string;

  beforeAll(async () => {
    db = await createTestDatabase('verification_observability');
    app = await createVerificationApp(serviceEnv(db.url), false);
    base = await listen(app);
    const admin = app.get(TenancyAdminService);
    await admin.createOwner('org-obs', 'Observed');
    key = (await admin.issueKey('org-obs', 'obs')).token;
  });

  afterAll(async () => {
    await app?.close();
    await db?.drop();
  });

  const cases = (headers: Record<string, string>) =>
    request(`${base}/api/v1/verification-cases?externalReferenceId=APP-1`, { headers });

  it('serves Prometheus text without an API key: request histograms by route pattern and status', async () => {
    expect((await cases({ 'X-API-Key': key, 'Service-Organization-Id': 'org-obs' })).status).toBe(200);
    expect((await cases({ 'X-API-Key': key, 'Service-Organization-Id': 'org-obs' })).status).toBe(200);
    expect((await cases({})).status).toBe(401);
    expect(
      (await request(`${base}/api/v1/verification-cases/00000000-0000-4000-8000-000000000000`)).status,
    ).toBe(401);
    expect((await request(`${base}/no/such/route`)).status).toBe(404);

    const res = await fetch(`${base}/metrics`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain;.*version=0\.0\.4/);
    const text = await res.text();
    const ok = 'method="GET",route="/api/v1/verification-cases",status="200"';
    expect(text).toContain('# TYPE http_request_duration_seconds histogram');
    expect(sample(text, `http_request_duration_seconds_count{${ok}}`)).toBe(2);
    expect(sample(text, `http_request_duration_seconds_bucket{le="+Inf",${ok}}`)).toBe(2);
    expect(sample(text, `http_request_duration_seconds_bucket{le="120",${ok}}`)).toBe(2);
    expect(sample(text, `http_request_duration_seconds_sum{${ok}}`)).toBeGreaterThan(0);
    expect(
      sample(
        text,
        'http_request_duration_seconds_count{method="GET",route="/api/v1/verification-cases",status="401"}',
      ),
    ).toBe(1);
    // The id in the path is not a label: the pattern is.
    expect(text).toContain('route="/api/v1/verification-cases/:id",status="401"');
    expect(text).not.toContain('00000000-0000-4000-8000-000000000000');
    expect(
      sample(text, 'http_request_duration_seconds_count{method="GET",route="unmatched",status="404"}'),
    ).toBe(1);
    expect(text).not.toContain('/no/such/route');
  });

  it("reports the database pool, the webhook worker's outcomes and Node's own figures", async () => {
    const text = await (await fetch(`${base}/metrics`)).text();
    expect(sample(text, 'db_pool_max_connections{pool="verification"}')).toBe(10);
    expect(sample(text, 'db_pool_connections{pool="verification"}')).toBeGreaterThan(0);
    expect(sample(text, 'db_pool_waiting_clients{pool="verification"}')).toBe(0);
    expect(text).toContain('# TYPE webhook_deliveries_total counter');
    expect(text).toContain('# TYPE rate_limit_rejections_total counter');
    expect(sample(text, 'process_resident_memory_bytes')).toBeGreaterThan(0);
  });

  describe('as a process in production mode', () => {
    let proc: JsonLineProcess;
    let procBase: string;

    beforeAll(async () => {
      const port = await freePort();
      procBase = `http://127.0.0.1:${port}`;
      proc = spawnTsProcess('apps/verification/src/main.ts', {
        ...serviceEnv(db.url),
        NODE_ENV: 'production',
        PORT: String(port),
        INSTANCE_ID: 'verification-obs-0',
        REPORT_SIGNING_KEY: randomBytes(24).toString('hex'),
        IDENTITY_PROVIDER_ALLOW_SANDBOX: 'true',
      });
      await proc.waitForLine((l) => String(l.message).startsWith('verification listening on'), 120_000);
    }, 150_000);

    afterAll(async () => {
      await proc?.stop();
    });

    it('logs JSON lines, one per request with its request id, tenant, route, status and latency', async () => {
      const headers = {
        'X-API-Key': key,
        'Service-Organization-Id': 'org-obs',
        'X-Request-Id': 'obs-request-1',
        Cookie: 'session=cookie-secret',
      };
      expect(
        (await fetch(`${procBase}/api/v1/verification-cases?externalReferenceId=A`, { headers })).status,
      ).toBe(200);
      const line = await proc.waitForLine((l) => l.requestId === 'obs-request-1', 10_000);
      expect(line).toMatchObject({
        level: 'log',
        service: 'verification',
        instance: 'verification-obs-0',
        context: 'HTTP',
        tenant: 'org-obs',
        method: 'GET',
        route: '/api/v1/verification-cases',
        status: 200,
      });
      expect(line.durationMs).toEqual(expect.any(Number));

      // A bearer token that is refused: the refusal is logged, the token is not.
      const refused = await fetch(`${procBase}/api/v1/verification-cases`, {
        headers: { Authorization: 'Bearer not-a-real-token', 'X-Request-Id': 'obs-request-3' },
      });
      expect(refused.status).toBe(401);
      expect(await proc.waitForLine((l) => l.requestId === 'obs-request-3', 10_000)).toMatchObject({
        status: 401,
        route: '/api/v1/verification-cases',
      });

      // An anonymous portal link: the token is a path segment, the log has the pattern only.
      const token = `tok-${randomBytes(12).toString('hex')}`;
      await fetch(`${procBase}/portal/v1/upload/${token}?lang=en`, {
        headers: { 'X-Request-Id': 'obs-request-2' },
      });
      const portal = await proc.waitForLine((l) => l.requestId === 'obs-request-2', 10_000);
      expect(portal).toMatchObject({ route: '/portal/v1/upload/:token', method: 'GET' });
      expect(portal).not.toHaveProperty('tenant');

      // Every line so far, start-up included, is JSON, and none holds a secret.
      const all = JSON.stringify(proc.lines);
      expect(proc.lines.some((l) => String(l.message).startsWith('config '))).toBe(true);
      for (const secret of [key, token, 'not-a-real-token', 'cookie-secret', db.url.split('@')[0]])
        expect(all).not.toContain(secret);
    });
  });
});
