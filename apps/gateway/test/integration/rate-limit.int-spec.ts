import type { INestApplication } from '@nestjs/common';
import { createTestDatabase, listen, withClient } from '@platform/testing';
import { createGatewayApp } from '../../src/bootstrap';
import { TestUpstream, call, upstreamEnv, type Answer } from './test-upstream';

const CACHED = `cc=${encodeURIComponent('public, max-age=30')}`;
let unique = 0;
type Init = NonNullable<Parameters<typeof call>[1]>;
const products = () => `/PublicStatus/Products?t=${++unique}&${CACHED}`;

/**
 * Per-IP budgets of anonymous routes (decision 0022) on two gateway replicas sharing one PostgreSQL.
 * GATEWAY_RATE_LIMIT_MULTIPLIER 0.01 turns the registry's budgets into tiny ones: public status 6 per
 * 60 s (a lease of 1 token, so the shared bound is exact), Subscribe and the calendar's rsvp 1.
 * Only 127.0.0.1 is a trusted proxy; the other loopback addresses are clients that cannot speak for
 * anyone else.
 */
describe('gateway per-IP rate limits (real HTTP, PostgreSQL, two replicas)', () => {
  let a: INestApplication;
  let b: INestApplication;
  let baseA: string;
  let baseB: string;
  let db: Awaited<ReturnType<typeof createTestDatabase>>;
  const upstream = new TestUpstream();
  const from = (localAddress: string, headers: Record<string, string> = {}): Init => ({
    localAddress,
    headers,
  });

  beforeAll(async () => {
    await upstream.start();
    db = await createTestDatabase('gateway_rate_limit');
    const env = {
      NODE_ENV: 'test',
      ...upstreamEnv(upstream.url),
      DATABASE_URL: db.url,
      GATEWAY_TRUSTED_PROXIES: '127.0.0.1/32',
      GATEWAY_RATE_LIMIT_MULTIPLIER: '0.01',
    };
    [a, b] = await Promise.all([
      createGatewayApp({ ...env, INSTANCE_ID: 'a' }, false),
      createGatewayApp({ ...env, INSTANCE_ID: 'b' }, false),
    ]);
    baseA = await listen(a);
    baseB = await listen(b);
  });

  afterAll(async () => {
    await a?.close();
    await b?.close();
    await upstream.stop();
    await db?.drop();
  });

  // The windows are fixed minutes by PostgreSQL's clock: never start a test in a window's last seconds.
  beforeEach(async () => {
    const left = 60_000 - (Date.now() % 60_000);
    if (left < 15_000) await new Promise((r) => setTimeout(r, left + 300));
  });

  const burst = async (base: string, n: number, init: Init, url = products()) => {
    const answers: Answer[] = [];
    for (let i = 0; i < n; i++) answers.push(await call(`${base}${url}`, init));
    return answers;
  };

  it('migrated its own schema at start', async () => {
    const tables = await withClient(db.url, (c) =>
      c.query<{ t: string }>(
        `SELECT table_name AS t FROM information_schema.tables WHERE table_schema = 'gateway'`,
      ),
    );
    expect(tables.rows.map((r) => r.t).sort()).toEqual(['migrations', 'rate_limit_leases']);
  });

  it('answers 429 in the envelope with Retry-After once the budget is spent, localised; the cache still serves', async () => {
    const url = products();
    const ok = await burst(baseA, 6, from('127.0.0.2'), url);
    expect(ok.map((x) => x.status)).toEqual(Array(6).fill(200));
    expect(ok.map((x) => x.headers['x-cache'])).toEqual(['MISS', 'HIT', 'HIT', 'HIT', 'HIT', 'HIT']);
    expect(upstream.seen.filter((s) => s.url === url)).toHaveLength(1);
    expect(ok[0].headers).toMatchObject({ 'ratelimit-limit': '6', 'ratelimit-policy': '6;w=60' });
    expect(Number(ok[5].headers['ratelimit-remaining'])).toBe(0);

    const refused = await call(`${baseA}${url}`, from('127.0.0.2', { 'Accept-Language': 'es' }));
    expect(refused.status).toBe(429);
    const retryAfter = Number(refused.headers['retry-after']);
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(refused.json).toMatchObject({
      success: false,
      code: 429,
      value: { reason: 'RATE_LIMITED', retryAfterSec: retryAfter, limit: 6, windowSec: 60 },
    });
    expect(refused.json.error).toContain('Demasiadas solicitudes');
    expect(refused.headers['x-request-id']).toBeTruthy();
    expect(refused.headers['x-content-type-options']).toBe('nosniff');
    const ru = await call(`${baseA}${url}`, from('127.0.0.2', { 'Accept-Language': 'ru' }));
    expect(ru.status).toBe(429);
    expect(ru.json.error).toContain('Слишком много запросов');
    // Refused requests never reach the service, cached or not.
    await call(`${baseA}${products()}`, from('127.0.0.2'));
    expect(upstream.seen.filter((s) => s.url === url)).toHaveLength(1);

    // Another address has its own budget.
    const other = await call(`${baseA}${url}`, from('127.0.0.3'));
    expect(other.status).toBe(200);
  });

  it('shares one budget across two replicas: never more than the limit per window', async () => {
    const answers: Answer[] = [];
    for (let i = 0; i < 12; i++)
      answers.push(await call(`${i % 2 ? baseB : baseA}${products()}`, from('127.0.0.4')));
    // Never over the limit; under it by at most one unspent lease (1 token) per replica, and which
    // answer is refused depends on which replica holds the last token (decision 0022).
    const ok = answers.filter((x) => x.status === 200).length;
    expect(ok).toBeLessThanOrEqual(6);
    expect(ok).toBeGreaterThanOrEqual(6 - 2);
    expect(answers.slice(-2).map((x) => x.status)).toEqual([429, 429]);
    // Concurrent requests on both replicas at once: still 6.
    const fresh = await Promise.all(
      Array.from({ length: 20 }, (_, i) => call(`${i % 2 ? baseB : baseA}${products()}`, from('127.0.0.5'))),
    );
    // Never over; under by at most one unspent lease (1 token) per replica (decision 0022).
    const admitted = fresh.filter((x) => x.status === 200).length;
    expect(admitted).toBeLessThanOrEqual(6);
    expect(admitted).toBeGreaterThanOrEqual(6 - 2);
  });

  it('counts an untrusted peer under its own address whatever X-Forwarded-For it sends', async () => {
    const spoofed = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        call(`${baseA}${products()}`, from('127.0.0.6', { 'X-Forwarded-For': `203.0.113.${i + 1}` })),
      ),
    );
    expect(spoofed.filter((x) => x.status === 200)).toHaveLength(6);
    expect(spoofed.filter((x) => x.status === 429)).toHaveLength(2);
    // A trusted proxy speaks for its clients: each forwarded address has its own budget.
    const relayed = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        call(`${baseA}${products()}`, from('127.0.0.1', { 'X-Forwarded-For': `198.51.100.${i + 1}` })),
      ),
    );
    expect(relayed.map((x) => x.status)).toEqual(Array(8).fill(200));
    // And a client behind it cannot get a fresh budget by adding addresses on the left.
    const chained = await burst(
      baseA,
      7,
      from('127.0.0.1', { 'X-Forwarded-For': '192.0.2.9, 198.51.100.77' }),
    );
    expect(chained.map((x) => x.status)).toEqual([...Array(6).fill(200), 429]);
    const moved = await call(
      `${baseA}${products()}`,
      from('127.0.0.1', { 'X-Forwarded-For': '192.0.2.10, 198.51.100.77' }),
    );
    expect(moved.status).toBe(429);
  });

  it('gives Subscribe its own, smaller budget, and leaves credentialed and other routes alone', async () => {
    const subscribe = await burst(
      baseA,
      2,
      { ...from('127.0.0.7'), method: 'POST' },
      '/PublicStatus/Subscribe',
    );
    expect(subscribe.map((x) => x.status)).toEqual([200, 429]);
    expect(subscribe[1].json.value).toMatchObject({ reason: 'RATE_LIMITED', limit: 1, windowSec: 3600 });
    expect((await call(`${baseA}${products()}`, from('127.0.0.7'))).status).toBe(200);
    const rsvp = await burst(baseB, 2, { ...from('127.0.0.7'), method: 'POST' }, '/Calendar/rsvp');
    expect(rsvp.map((x) => x.status)).toEqual([200, 429]);

    const events = await burst(
      baseA,
      10,
      from('127.0.0.8', { Authorization: 'Bearer x' }),
      '/Calendar/events',
    );
    expect(events.map((x) => x.status)).toEqual(Array(10).fill(200));
    expect(events[0].headers['ratelimit-limit']).toBeUndefined();
    const manage = await burst(
      baseA,
      10,
      from('127.0.0.8', { 'X-Api-Key': 'k' }),
      '/PublicStatus/manage/business',
    );
    expect(manage.map((x) => x.status)).toEqual(Array(10).fill(200));
    expect(manage[0].headers['ratelimit-limit']).toBeUndefined();
  });

  it('does not let a credential header buy a fresh budget on an anonymous route', async () => {
    const answers = await burst(baseA, 7, from('127.0.0.9', { 'X-Api-Key': 'made-up' }));
    expect(answers.map((x) => x.status)).toEqual([...Array(6).fill(200), 429]);
  });

  it('keeps no client address in the database', async () => {
    const rows = await withClient(db.url, (c) =>
      c.query<{ bucket: string }>('SELECT bucket FROM gateway.rate_limit_leases'),
    );
    expect(rows.rows.length).toBeGreaterThan(0);
    for (const r of rows.rows) expect(r.bucket).not.toMatch(/127\.0\.0|198\.51|public-status/);
  });
});
