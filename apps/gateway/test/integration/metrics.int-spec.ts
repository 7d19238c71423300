import type { INestApplication } from '@nestjs/common';
import { MetricsListener } from '@platform/health';
import { freePort } from '@platform/dev-infra';
import { createTestDatabase, listen } from '@platform/testing';
import { createGatewayApp } from '../../src/bootstrap';
import { TestUpstream, call, upstreamEnv } from './test-upstream';

const sample = (text: string, series: string): number | undefined => {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
};

/**
 * The gateway's metrics: on METRICS_PORT only, never on its own port (which the ingress exposes to
 * everyone), with its proxied requests labelled by route table entry and its rate-limit refusals.
 */
describe('gateway metrics (real HTTP, PostgreSQL)', () => {
  let app: INestApplication;
  let base: string;
  let metricsUrl: string;
  let db: Awaited<ReturnType<typeof createTestDatabase>>;
  const upstream = new TestUpstream();

  beforeAll(async () => {
    await upstream.start();
    db = await createTestDatabase('gateway_metrics');
    const port = await freePort();
    app = await createGatewayApp(
      {
        NODE_ENV: 'test',
        ...upstreamEnv(upstream.url),
        DATABASE_URL: db.url,
        // Public status: 6 requests a minute per address.
        GATEWAY_RATE_LIMIT_MULTIPLIER: '0.01',
        GATEWAY_CACHE_MAX_BYTES: '0',
        METRICS_PORT: String(port),
        HOST: '127.0.0.1',
      },
      false,
    );
    base = await listen(app);
    expect(app.get(MetricsListener).port).toBe(port);
    metricsUrl = `http://127.0.0.1:${port}/metrics`;
  });

  afterAll(async () => {
    await app?.close();
    await upstream.stop();
    await db?.drop();
  });

  it('does not serve /metrics on its public port', async () => {
    const res = await call(`${base}/metrics`);
    expect(res.status).toBe(404);
    expect(res.json).toMatchObject({ success: false, value: { reason: 'ROUTE_NOT_FOUND' } });
  });

  it('serves them on METRICS_PORT: proxied requests by route entry, refusals by budget, its pool', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 8; i++) statuses.push((await call(`${base}/PublicStatus/Products?n=${i}`)).status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(6);
    expect(statuses.slice(6)).toEqual([429, 429]);
    await call(`${base}/health/live`);

    const res = await fetch(metricsUrl);
    expect(res.status).toBe(200);
    const text = await res.text();
    expect(
      sample(text, 'http_request_duration_seconds_count{method="GET",route="/PublicStatus",status="200"}'),
    ).toBe(6);
    expect(
      sample(text, 'http_request_duration_seconds_count{method="GET",route="/PublicStatus",status="429"}'),
    ).toBe(2);
    expect(
      sample(text, 'http_request_duration_seconds_count{method="GET",route="/health/live",status="200"}'),
    ).toBe(1);
    expect(sample(text, 'rate_limit_rejections_total{limiter="gateway",budget="public-status"}')).toBe(2);
    expect(sample(text, 'db_pool_max_connections{pool="gateway"}')).toBe(4);
    expect(text).not.toContain('/PublicStatus/Products');
  });
});
