import type { INestApplication } from '@nestjs/common';
import { ROUTED_SERVICES } from '@platform/registry';
import { listen } from '@platform/testing';
import { createGatewayApp } from '../../src/bootstrap';
import { TestUpstream, call, upstreamEnv } from './test-upstream';

type Check = { status: 'up' | 'down'; latencyMs: number; error?: string };

/** GET /health/ready on the gateway: every service's readiness, asked at once, through real HTTP. */
describe('gateway readiness aggregation (real HTTP)', () => {
  let gateway: INestApplication;
  let base: string;
  const upstream = new TestUpstream();
  const services = ROUTED_SERVICES.map((s) => s.name);

  beforeAll(async () => {
    await upstream.start();
    // Each service under its own base path of the test upstream: /<service>/health/ready.
    gateway = await createGatewayApp(
      {
        NODE_ENV: 'test',
        GATEWAY_RATE_LIMIT: 'off',
        ...upstreamEnv(upstream.url, true),
        GATEWAY_READY_TIMEOUT_MS: '400',
      },
      false,
    );
    base = await listen(gateway);
  });

  afterEach(() => {
    upstream.down.clear();
    upstream.silent.clear();
  });

  afterAll(async () => {
    await gateway?.close();
    await upstream.stop();
  });

  it('is 200 with every service up, one check per service', async () => {
    const res = await call(`${base}/health/ready`);
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ success: true, code: 200, value: { service: 'gateway', status: 'up' } });
    const checks = res.json.value?.checks as Record<string, Check>;
    expect(Object.keys(checks).sort()).toEqual([...services].sort());
    for (const s of services) expect(checks[s].status).toBe('up');
  });

  it('is 503 naming the service that is down, with each service’s status', async () => {
    upstream.down.add('lending');
    const res = await call(`${base}/health/ready`, { headers: { 'Language-Code': 'ru' } });
    expect(res.status).toBe(503);
    expect(res.json).toMatchObject({
      success: false,
      code: 503,
      error: 'Сервис не готов: lending.',
      value: { reason: 'NOT_READY', service: 'gateway', status: 'down' },
    });
    const checks = res.json.value?.checks as Record<string, Check>;
    expect(checks.lending).toMatchObject({ status: 'down', error: 'answered 503 (database down)' });
    for (const s of services.filter((x) => x !== 'lending')) expect(checks[s].status).toBe('up');
    // Liveness stays trivial: the gateway process answers.
    expect((await call(`${base}/health/live`)).status).toBe(200);
  });

  it('asks every service at once and gives up on a silent one after the short timeout', async () => {
    upstream.silent.add('calendar');
    upstream.silent.add('verification');
    const started = Date.now();
    const res = await call(`${base}/health/ready`);
    const took = Date.now() - started;
    expect(res.status).toBe(503);
    expect(String(res.json.error)).toMatch(/calendar, verification/);
    const checks = res.json.value?.checks as Record<string, Check>;
    expect(checks.calendar).toMatchObject({ status: 'down', error: 'no answer in 400 ms' });
    expect(checks.verification.status).toBe('down');
    // Two silent services, 400 ms each: concurrent, not one after the other.
    expect(took).toBeLessThan(750);
  });

  it('says a service is unreachable without naming its internal address', async () => {
    const lonely = await createGatewayApp(
      {
        NODE_ENV: 'test',
        GATEWAY_RATE_LIMIT: 'off',
        ...upstreamEnv(upstream.url, true),
        OUTBOX_RELAY_URL: 'http://127.0.0.1:9',
      },
      false,
    );
    const url = await listen(lonely);
    try {
      const res = await call(`${url}/health/ready`);
      expect(res.status).toBe(503);
      const checks = res.json.value?.checks as Record<string, Check>;
      expect(checks['outbox-relay']).toMatchObject({ status: 'down', error: 'unreachable' });
      expect(res.text).not.toContain('127.0.0.1:9');
    } finally {
      await lonely.close();
    }
  });

  it('shares one probe per service among concurrent readiness requests', async () => {
    const before = upstream.seen.length;
    await Promise.all(Array.from({ length: 10 }, () => call(`${base}/health/ready`)));
    const probes = upstream.seen.slice(before).filter((s) => s.url.endsWith('/health/ready'));
    expect(probes.length).toBeGreaterThanOrEqual(services.length);
    expect(probes.length).toBeLessThan(10 * services.length);
  });
});
