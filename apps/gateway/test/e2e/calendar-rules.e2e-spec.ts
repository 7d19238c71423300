import { resolve } from 'node:path';
import { launchSystem, runAdmin, type RunningSystem } from '@platform/dev-infra';
import { createTestDatabase, request, TopicCollector } from '@platform/testing';

const DIST = resolve(__dirname, '../../../../dist');

type Env<T = Record<string, unknown>> = { success: boolean; code: number; error: string | null; value: T };

/**
 * The calendar's rules as a partner meets them: through the gateway, against the built apps, with
 * keys and grants made by the admin CLI.
 */
describe('calendar rules through the gateway', () => {
  let db: Awaited<ReturnType<typeof createTestDatabase>>;
  let system: RunningSystem;
  let gw: string;
  let collector: TopicCollector;
  const keys: Record<string, { apiKey: string; keyId: string }> = {};
  const headers = (product: string, extra: Record<string, string> = {}) => ({
    API_KEY: keys[product].apiKey,
    AccountId: 'acme',
    ProductId: product,
    ...extra,
  });

  beforeAll(async () => {
    db = await createTestDatabase('e2e_calendar');
    const env = {
      DATABASE_URL: db.url,
      KAFKA_BROKERS: process.env.KAFKA_BROKERS as string,
      NODE_ENV: 'test',
    };
    system = await launchSystem({
      distDir: DIST,
      databaseUrl: db.url,
      kafkaBrokers: env.KAFKA_BROKERS,
      ports: 'free',
      nodeEnv: 'test',
      env: {
        LOG_LEVEL: 'warn',
        RELAY_POLL_INTERVAL_MS: '200',
        CALENDAR_WRITE_LIMIT: '12',
        CALENDAR_WRITE_WINDOW_SEC: '86400',
      },
    });
    gw = system.gatewayUrl;
    runAdmin(DIST, 'calendar', ['create-account', 'acme', 'Acme'], env);
    for (const p of ['crm', 'erp', 'busy', 'none']) {
      runAdmin(DIST, 'calendar', ['create-product', p], env);
      const issued = runAdmin(DIST, 'calendar', ['issue-key', p, 'e2e'], env) as {
        token: string;
        keyId: string;
      };
      keys[p] = { apiKey: issued.token, keyId: issued.keyId };
    }
    runAdmin(DIST, 'calendar', ['grant', 'acme', 'crm', 'Push,Read'], env);
    runAdmin(DIST, 'calendar', ['grant', 'acme', 'erp', 'Push'], env);
    runAdmin(DIST, 'calendar', ['grant', 'acme', 'busy', 'FreeBusy'], env);
    collector = await TopicCollector.start(['calendar.event.changed.v1', 'calendar.event.removed.v1']);
  }, 180000);

  afterAll(async () => {
    await collector?.stop();
    await system?.stop();
    await db?.drop();
  });

  const upsert = (product: string, body: Record<string, unknown>, extra: Record<string, string> = {}) =>
    request<Env>(`${gw}/Calendar/upsert`, { headers: headers(product, extra), body });

  it('updates by triple with +1 versions, and answers a stale version with 409, the current event and a diff', async () => {
    const body = {
      entity_type: 'deal',
      entity_id: 'D-1',
      title: 'First',
      start: { date_time: '2026-12-01T09:00:00Z' },
    };
    expect((await upsert('crm', body)).status).toBe(201);
    const second = await upsert('crm', { ...body, version: 1, title: 'Second' });
    expect([second.status, second.body.value.version]).toEqual([200, 2]);
    const stale = await upsert('crm', { ...body, version: 1, title: 'Third' }, { 'Language-Code': 'es' });
    expect(stale.status).toBe(409);
    expect(stale.body.value).toMatchObject({
      reason: 'CALENDAR_VERSION_CONFLICT',
      current: { version: 2, title: 'Second' },
      diff: [{ field: 'title', sent: 'Third', current: 'Second' }],
    });
    expect(stale.body.error).toContain('versión 1');
    const events = await collector.waitFor((m) => (m.value as { entityId?: string }).entityId === 'D-1', 2);
    expect(events.map((m) => (m.value as { version: number }).version).sort()).toEqual([1, 2]);
  });

  it('rejects a non-owner remove, removes with the owner key, and a repeat is a no-op', async () => {
    await upsert('crm', { entity_type: 'deal', entity_id: 'D-2' });
    const foreign = await request<Env>(`${gw}/Calendar/remove`, {
      headers: headers('erp'),
      body: { product_id: 'crm', entity_type: 'deal', entity_id: 'D-2' },
    });
    expect([foreign.status, foreign.body.value.reason]).toEqual([403, 'CALENDAR_NOT_OWNER']);
    const removed = await request<Env>(`${gw}/Calendar/remove`, {
      headers: headers('crm'),
      body: { entity_type: 'deal', entity_id: 'D-2' },
    });
    expect(removed.body.value).toMatchObject({ removed: true });
    const again = await request<Env>(`${gw}/Calendar/remove`, {
      headers: headers('crm'),
      body: { entity_type: 'deal', entity_id: 'D-2' },
    });
    expect([again.status, again.body.value.removed]).toEqual([200, false]);
    await collector.waitFor(
      (m) => m.topic === 'calendar.event.removed.v1' && (m.value as { entityId: string }).entityId === 'D-2',
    );
  });

  it('refuses an integration without a grant, and a revoked key', async () => {
    const denied = await upsert('none', { entity_type: 'x', entity_id: '1' });
    expect([denied.status, denied.body.value.reason]).toEqual([403, 'CALENDAR_GRANT_MISSING']);
    const env = {
      DATABASE_URL: db.url,
      KAFKA_BROKERS: process.env.KAFKA_BROKERS as string,
      NODE_ENV: 'test',
    };
    runAdmin(DIST, 'calendar', ['revoke-key', keys.erp.keyId], env);
    // The revoke ran in another process, so the running calendar forgets the key when its cache entry
    // expires (API_KEY_CACHE_TTL_MS, 2 s by default). Probe with a read (no write budget spent): 403
    // without the Read grant while the key still authenticates, 401 once the revocation is seen.
    const revokedAt = Date.now();
    let probe = await request<Env>(
      `${gw}/Calendar/events?from=2026-12-01T00:00:00Z&to=2026-12-08T00:00:00Z`,
      {
        headers: headers('erp'),
      },
    );
    while (probe.status !== 401 && Date.now() - revokedAt < 5000) {
      await new Promise((r) => setTimeout(r, 100));
      probe = await request<Env>(`${gw}/Calendar/events?from=2026-12-01T00:00:00Z&to=2026-12-08T00:00:00Z`, {
        headers: headers('erp'),
      });
    }
    expect([probe.status, probe.body.value.reason]).toEqual([401, 'API_KEY_REVOKED']);
    expect(Date.now() - revokedAt).toBeLessThan(2000 + 1500);
    const revoked = await upsert('erp', { entity_type: 'x', entity_id: '2' });
    expect([revoked.status, revoked.body.value.reason]).toEqual([401, 'API_KEY_REVOKED']);
  });

  it('gives a FreeBusy-only integration no event details, and no filter on hidden fields', async () => {
    const events = await request<Env<{ items: Record<string, unknown>[]; total: number }>>(
      `${gw}/Calendar/events`,
      { headers: headers('busy') },
    );
    expect(events.status).toBe(200);
    expect(events.body.value.total).toBeGreaterThan(0);
    for (const item of events.body.value.items)
      expect(Object.keys(item).sort()).toEqual(['all_day', 'end', 'free_busy', 'start']);
    // Nor can it filter by what it cannot read, or probe another product's entity ids.
    const probe = await request<Env>(`${gw}/Calendar/events?text=Second`, { headers: headers('busy') });
    expect([probe.status, probe.body.value.reason]).toEqual([403, 'CALENDAR_FILTER_NEEDS_READ']);
    const byEntity = await request<Env>(`${gw}/Calendar/listByEntity?product_id=crm&entity_id=D-1`, {
      headers: headers('busy'),
    });
    expect([byEntity.status, byEntity.body.value.reason]).toEqual([403, 'CALENDAR_FILTER_NEEDS_READ']);
    expect(JSON.stringify(byEntity.body)).not.toContain('Second');
  });

  it('limits writes per product with 429, Retry-After and RateLimit headers', async () => {
    let last = await upsert('crm', { entity_type: 'burst', entity_id: 'B-0' });
    for (let i = 1; i < 20 && last.status !== 429; i++)
      last = await upsert('crm', { entity_type: 'burst', entity_id: `B-${i}` });
    expect(last.status).toBe(429);
    expect(last.body).toMatchObject({ success: false, code: 429, value: { reason: 'RATE_LIMITED' } });
    expect(Number(last.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(last.headers.get('ratelimit-limit')).toBe('12');
    expect(last.headers.get('ratelimit-remaining')).toBe('0');
  });
});
