import type { INestApplication } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { PgSlidingWindowLimiter } from '@platform/persistence';
import { createTestDatabase, eventually, listen, request, serviceEnv, withClient } from '@platform/testing';
import { createCalendarApp } from '../../src/bootstrap';
import { ensureAccount, ensureProduct, grantPermissions, issueProductKey } from './calendar-admin';

type Env<T = Record<string, unknown>> = { success: boolean; code: number; error: string | null; value: T };

describe('calendar write rate limit and request log (two replicas, real PostgreSQL)', () => {
  let a: INestApplication;
  let b: INestApplication;
  let urlA: string;
  let urlB: string;
  let db: Awaited<ReturnType<typeof createTestDatabase>>;
  let crm: { token: string; keyId: string };
  let erp: { token: string; keyId: string };
  let crmDefault: { token: string; keyId: string };

  beforeAll(async () => {
    db = await createTestDatabase('calendar_limits');
    // A day-long window: the test cannot straddle a window boundary in practice.
    const env = serviceEnv(db.url, { CALENDAR_WRITE_LIMIT: '5', CALENDAR_WRITE_WINDOW_SEC: '86400' });
    a = await createCalendarApp(env, false);
    urlA = await listen(a);
    b = await createCalendarApp(env, false);
    urlB = await listen(b);
    await ensureAccount(a, 'acme', 'Acme');
    await ensureProduct(a, 'crm', 'CRM');
    await ensureProduct(a, 'erp', 'ERP');
    crm = await issueProductKey(a, 'crm', 'partner integration');
    crmDefault = await issueProductKey(a, 'crm', 'default', true);
    erp = await issueProductKey(a, 'erp', 'erp');
    await grantPermissions(a, 'acme', 'crm', ['Push', 'Read']);
    await grantPermissions(a, 'acme', 'erp', ['Push']);
  });

  afterAll(async () => {
    await a?.close();
    await b?.close();
    await db?.drop();
  });

  const write = (base: string, key: { token: string }, product: string, id: string, lang = 'en') =>
    request<Env<{ reason?: string }>>(`${base}/Calendar/upsert`, {
      headers: { API_KEY: key.token, AccountId: 'acme', ProductId: product, 'Language-Code': lang },
      body: { entity_type: 'deal', entity_id: id },
    });

  it("counts one product's writes across replicas and answers the excess with 429, Retry-After and RateLimit headers", async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++)
      statuses.push((await write(i % 2 ? urlB : urlA, crm, 'crm', `RL-${i}`)).status);
    expect(statuses).toEqual([201, 201, 201, 201, 201]);
    const sixth = await write(urlA, crm, 'crm', 'RL-0');
    expect(sixth.status).toBe(429);
    const limited = await write(urlB, crm, 'crm', 'RL-6', 'tr');
    expect(limited.status).toBe(429);
    expect(limited.body).toMatchObject({
      success: false,
      code: 429,
      value: { reason: 'RATE_LIMITED', limit: 5, windowSec: 86400 },
    });
    expect(limited.body.error).toMatch(/^Çok fazla istek\. \d+ sn sonra tekrar deneyin\.$/);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(limited.headers.get('ratelimit-limit')).toBe('5');
    expect(limited.headers.get('ratelimit-remaining')).toBe('0');
    expect(limited.headers.get('ratelimit-policy')).toBe('5;w=86400');
    // Another product has its own budget.
    const other = await write(urlA, erp, 'erp', 'RL-x');
    expect(other.status).toBe(201);
    expect(other.headers.get('ratelimit-remaining')).toBe('4');
    // Reads are not limited.
    const read = await request(`${urlA}/Calendar/events`, {
      headers: { API_KEY: crm.token, AccountId: 'acme', ProductId: 'crm' },
    });
    expect(read.status).toBe(200);
  });

  it('logs requests of non-default keys (no secrets, no bodies) and not those of the default key', async () => {
    const logged = await request(`${urlA}/Calendar/events?text=secret-query`, {
      headers: { API_KEY: crm.token, AccountId: 'acme', ProductId: 'crm' },
    });
    await request(`${urlA}/Calendar/events`, {
      headers: { API_KEY: crmDefault.token, AccountId: 'acme', ProductId: 'crm' },
    });
    const rows = await eventually(async () => {
      const r = await withClient(db.url, (c) =>
        c.query(`SELECT * FROM calendar.request_log WHERE request_id = $1`, [
          logged.headers.get('x-request-id'),
        ]),
      );
      return r.rows.length ? r.rows : undefined;
    });
    expect(rows[0]).toMatchObject({
      key_id: crm.keyId,
      product_id: 'crm',
      account_id: 'acme',
      method: 'GET',
      path: '/Calendar/events',
      status: 200,
    });
    expect(rows[0].latency_ms).toBeGreaterThanOrEqual(0);
    const all = await withClient(db.url, (c) =>
      c.query(`SELECT key_id, path, status FROM calendar.request_log`),
    );
    expect(all.rows.some((r) => r.key_id === crmDefault.keyId)).toBe(false);
    expect(JSON.stringify(all.rows)).not.toContain(crm.token);
    expect(JSON.stringify(all.rows)).not.toContain('secret-query');
    // Refused writes are logged too, with their status (each replica flushes its own batch, so the
    // other replica's lines may land after this one's).
    const refused = await eventually(async () => {
      const r = await withClient(db.url, (c) =>
        c.query(`SELECT count(*)::int AS n FROM calendar.request_log WHERE status = 429`),
      );
      return r.rows[0].n >= 2 ? r.rows[0].n : undefined;
    });
    expect(refused).toBeGreaterThanOrEqual(2);
  });

  it('slides: the previous window counts in proportion to its overlap (limiter math on real PostgreSQL)', async () => {
    const limiter = new PgSlidingWindowLimiter(a.get(DataSource), 'calendar', 10, 60);
    const start = Math.floor(Date.parse('2030-01-01T00:00:00Z') / 60000) * 60000;
    for (let i = 0; i < 10; i++) expect((await limiter.hit('slide', start + 1000)).allowed).toBe(true);
    expect((await limiter.hit('slide', start + 2000)).allowed).toBe(false);
    // Halfway through the next window, 11 previous hits weigh 5.5: four more fit (9.5), a fifth does not.
    const half = start + 60000 + 30000;
    const results = [];
    for (let i = 0; i < 5; i++) results.push((await limiter.hit('slide', half)).allowed);
    expect(results).toEqual([true, true, true, true, false]);
    const refused = await limiter.hit('slide', half);
    expect(refused.retryAfterSec).toBeGreaterThan(0);
    expect(refused.retryAfterSec).toBeLessThanOrEqual(30);
  });
});
