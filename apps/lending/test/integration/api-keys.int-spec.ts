import { hashApiKey } from '@platform/auth';
import { withClient } from '@platform/testing';
import { KeyRequestLogRetention } from '../../src/api-keys/key-request-log.retention';
import { KeyRequestLogWriter } from '../../src/api-keys/key-request-log.writer';
import { TenantConnections } from '../../src/tenancy/tenant-connections';
import { startLending, type LendingFixture } from './lending-fixture';

type Issued = { apiKey: string; keyId: string; label: string; scopes: string[] };
type Reissued = Issued & { replacedKeyId: string; replacedKeyExpiresAt: string };
type Key = {
  keyId: string;
  label: string;
  scopes: string[];
  createdAt: string;
  expiresAt: string | null;
  revokedAt: string | null;
  lastUsedAt: string | null;
};
type Line = {
  at: string;
  method: string;
  path: string;
  status: number;
  durationMs: number;
  requestId: string;
};
type Page<T> = { items: T[]; total: number };

const TOKEN = /^lnd_([0-9A-Za-z]{12})_([0-9A-Za-z]{40})$/;
/** A token's public key id and its secret. */
const partsOf = (token: string) => {
  const m = TOKEN.exec(token);
  if (!m) throw new Error(`not a lending key: ${token}`);
  return { keyId: m[1], secret: m[2] };
};
const keyIdOf = (headers: Record<string, string>) => partsOf(headers['X-Api-Key']).keyId;
const as = (token: string, org: string) => ({ 'X-Api-Key': token, 'Organization-Id': org });

describe('partner keys managed by their organization through the API (real PostgreSQL)', () => {
  let s: LendingFixture;
  /** Keys holding every lending scope, keys:admin included (as the admin CLI issues them). */
  let adminA: Record<string, string>;
  let adminB: Record<string, string>;

  beforeAll(async () => {
    s = await startLending('lending_api_keys');
    adminA = await s.organization('bank-a');
    adminB = await s.organization('bank-b');
  });

  afterAll(async () => {
    await s?.close();
  });

  const issue = (caller: Record<string, string>, body: unknown, lang = 'en') =>
    s.call<Issued & { scopesNotHeld?: string[] }>(caller, 'POST', '/ApiKeys/IssueKey', body, lang);
  const reissue = (caller: Record<string, string>, body: unknown, lang = 'en') =>
    s.call<Reissued>(caller, 'POST', '/ApiKeys/ReissueKey', body, lang);
  const revoke = (caller: Record<string, string>, keyId: string, lang = 'en') =>
    s.call<Key>(caller, 'POST', '/ApiKeys/RevokeKey', { keyId }, lang);
  const getKeys = (caller: Record<string, string>, query = '') =>
    s.call<Page<Key>>(caller, 'GET', `/ApiKeys/GetKeys${query}`);
  const allKeys = async (caller: Record<string, string>) =>
    (await getKeys(caller, '?Count=500')).body.value.items;
  const requestsOf = (caller: Record<string, string>, keyId: string, query = '', lang = 'en') =>
    s.call<Page<Line>>(caller, 'GET', `/ApiKeys/GetKeyRequests?KeyId=${keyId}${query}`, undefined, lang);
  const flushLog = () => s.app.get(KeyRequestLogWriter).flush();
  const statusOf = async (token: string, org = 'bank-a') => {
    const res = await getKeys(as(token, org));
    return [res.status, res.body.value.reason ?? null];
  };

  it('issues a key that works at once, holding exactly the scopes asked for', async () => {
    const res = await issue(adminA, { label: 'Reporting', scopes: ['keys:read', 'applications:read'] });
    expect(res.status).toBe(201);
    expect(res.headers.get('cache-control')).toBe('no-store');
    const key = res.body.value;
    expect(key.apiKey).toMatch(TOKEN);
    expect(key).toMatchObject({ label: 'Reporting', scopes: ['keys:read', 'applications:read'] });
    expect(partsOf(key.apiKey).keyId).toBe(key.keyId);
    expect(await statusOf(key.apiKey)).toEqual([200, null]);
    // It reads keys; it cannot manage them.
    const refused = await issue(as(key.apiKey, 'bank-a'), { label: 'x', scopes: ['keys:read'] }, 'ru');
    expect(refused.status).toBe(403);
    expect(refused.body.value).toMatchObject({ reason: 'SCOPE_MISSING', missingScopes: ['keys:admin'] });
    expect(refused.body.error).toBe('У ключа API нет прав: keys:admin.');
  });

  it('shows the secret in the issue answer only: never in GetKeys, the database or the request log', async () => {
    const { apiKey, keyId } = (await issue(adminA, { label: 'Once', scopes: ['keys:read'] })).body.value;
    const { secret } = partsOf(apiKey);
    await getKeys(as(apiKey, 'bank-a'), `?Count=1&token=${apiKey}`);
    const listed = await allKeys(adminA);
    const mine = listed.find((k) => k.keyId === keyId);
    expect(Object.keys(mine ?? {}).sort()).toEqual(
      ['createdAt', 'expiresAt', 'keyId', 'label', 'lastUsedAt', 'revokedAt', 'scopes'].sort(),
    );
    expect(JSON.stringify(listed)).not.toContain(secret);
    expect(JSON.stringify(listed)).not.toContain(hashApiKey(apiKey));
    await flushLog();
    const rows = await withClient(s.db.url, async (c) => ({
      keys: (await c.query('SELECT * FROM lending.api_keys WHERE key_id = $1', [keyId])).rows,
      log: (await c.query('SELECT * FROM lending.api_key_requests')).rows,
      usage: (await c.query('SELECT * FROM lending.api_key_usage')).rows,
    }));
    // Only the SHA-256 of the whole token is stored; the key id (its public part) finds the row.
    expect(rows.keys).toHaveLength(1);
    expect(rows.keys[0].hash).toBe(hashApiKey(apiKey));
    expect(JSON.stringify(rows)).not.toContain(secret);
    expect(rows.log.some((l) => l.key_id === keyId)).toBe(true);
  });

  it('refuses to grant a scope the calling key does not hold, on issue and on reissue', async () => {
    const limited = (
      await issue(adminA, { label: 'Key manager', scopes: ['keys:admin', 'applications:read'] })
    ).body.value;
    const manager = as(limited.apiKey, 'bank-a');
    const before = (await allKeys(adminA)).length;
    const escalate = await issue(manager, { label: 'more', scopes: ['applications:read', 'loans:write'] });
    expect(escalate.status).toBe(403);
    expect(escalate.body.value).toMatchObject({
      reason: 'API_KEY_SCOPE_ESCALATION',
      scopesNotHeld: ['loans:write'],
    });
    expect(escalate.body.error).toBe('A key cannot grant scopes it does not hold itself: loans:write.');
    const es = await issue(manager, { label: 'more', scopes: ['keys:read'] }, 'es');
    expect([es.status, es.body.error]).toEqual([
      403,
      'Una clave no puede otorgar permisos que no tiene ella misma: keys:read.',
    ]);
    // Reissuing the organization's all-scopes key would hand this key a secret with every scope.
    const viaReissue = await reissue(manager, { keyId: keyIdOf(adminA), overlapSeconds: 0 }, 'uz');
    expect(viaReissue.status).toBe(403);
    expect(viaReissue.body.value.reason).toBe('API_KEY_SCOPE_ESCALATION');
    expect(viaReissue.body.error).toContain("Kalit o'zida bo'lmagan ruxsatlarni bera olmaydi:");
    expect(await statusOf(adminA['X-Api-Key'])).toEqual([200, null]);
    expect((await allKeys(adminA)).length).toBe(before);
    // Within its own scopes it may issue (and reissue its own key).
    const narrower = await issue(manager, { label: 'narrower', scopes: ['applications:read'] });
    expect([narrower.status, narrower.body.value.scopes]).toEqual([201, ['applications:read']]);
    // Scopes lending does not have are a validation error, not a grant.
    const unknown = await issue(adminA, { label: 'x', scopes: ['cases:read'] });
    expect(unknown.status).toBe(400);
    expect(unknown.body.value.fields?.map((f) => f.field)).toContain('scopes');
  });

  it('reissues: the new key works at once, the old one until the overlap ends, then 401 API_KEY_EXPIRED', async () => {
    const old = (await issue(adminA, { label: 'Rollover', scopes: ['keys:read'] })).body.value;
    expect(await statusOf(old.apiKey)).toEqual([200, null]); // cached by this replica now
    const res = await reissue(adminA, { keyId: old.keyId, overlapSeconds: 2 });
    expect(res.status).toBe(201);
    const next = res.body.value;
    expect(next).toMatchObject({ label: 'Rollover', scopes: ['keys:read'], replacedKeyId: old.keyId });
    expect(next.apiKey).toMatch(TOKEN);
    expect(next.keyId).not.toBe(old.keyId);
    const stops = Date.parse(next.replacedKeyExpiresAt);
    expect(Math.abs(stops - (Date.now() + 2000))).toBeLessThan(1500);
    expect(await statusOf(next.apiKey)).toEqual([200, null]);
    expect(await statusOf(old.apiKey)).toEqual([200, null]);
    await new Promise((r) => setTimeout(r, Math.max(0, stops - Date.now()) + 100));
    expect(await statusOf(old.apiKey)).toEqual([401, 'API_KEY_EXPIRED']);
    expect(await statusOf(next.apiKey)).toEqual([200, null]);
    const listed = await allKeys(adminA);
    expect(listed.find((k) => k.keyId === old.keyId)?.expiresAt).toBe(next.replacedKeyExpiresAt);
    // An expired key has nothing to reissue.
    const late = await reissue(adminA, { keyId: old.keyId }, 'tr');
    expect([late.status, late.body.value.reason]).toEqual([409, 'API_KEY_NOT_LIVE']);
    expect(late.body.error).toBe(
      `${old.keyId} anahtarı iptal edilmiş veya süresi dolmuş; bu nedenle yeniden oluşturulamaz.`,
    );
  });

  it('reissues with a 24 h overlap by default, and refuses one outside 0..30 days', async () => {
    const old = (await issue(adminA, { label: 'Default overlap', scopes: ['keys:read'] })).body.value;
    const res = await reissue(adminA, { keyId: old.keyId });
    expect(res.status).toBe(201);
    expect(
      Math.abs(Date.parse(res.body.value.replacedKeyExpiresAt) - (Date.now() + 86_400_000)),
    ).toBeLessThan(5000);
    for (const overlapSeconds of [-1, 30 * 86400 + 1, 1.5, '60', null]) {
      const bad = await reissue(adminA, { keyId: res.body.value.keyId, overlapSeconds });
      expect([bad.status, bad.body.value.reason]).toEqual([400, 'VALIDATION_FAILED']);
    }
    const zero = await reissue(adminA, { keyId: res.body.value.keyId, overlapSeconds: 0 });
    expect(zero.status).toBe(201);
    expect(await statusOf(res.body.value.apiKey)).toEqual([401, 'API_KEY_EXPIRED']);
    expect(await statusOf(zero.body.value.apiKey)).toEqual([200, null]);
  });

  it('revokes at once on the replica that revoked; a second revoke changes nothing', async () => {
    const key = (await issue(adminA, { label: 'Leaked', scopes: ['keys:read'] })).body.value;
    expect(await statusOf(key.apiKey)).toEqual([200, null]); // now in this replica's key cache
    const res = await revoke(adminA, key.keyId);
    expect(res.status).toBe(200);
    expect(res.body.value).toMatchObject({ keyId: key.keyId, label: 'Leaked' });
    expect(res.body.value.revokedAt).not.toBeNull();
    expect(await statusOf(key.apiKey)).toEqual([401, 'API_KEY_REVOKED']);
    const again = await revoke(adminA, key.keyId);
    expect([again.status, again.body.value.revokedAt]).toEqual([200, res.body.value.revokedAt]);
    const revived = await reissue(adminA, { keyId: key.keyId });
    expect([revived.status, revived.body.value.reason]).toEqual([409, 'API_KEY_NOT_LIVE']);
  });

  it('pages the keys with their total, newest first', async () => {
    const all = await allKeys(adminA);
    const first = await getKeys(adminA, '?Offset=0&Count=2');
    const second = await getKeys(adminA, '?Offset=2&Count=2');
    expect(first.body.value.total).toBe(all.length);
    expect(second.body.value.total).toBe(all.length);
    expect([...first.body.value.items, ...second.body.value.items].map((k) => k.keyId)).toEqual(
      all.slice(0, 4).map((k) => k.keyId),
    );
    const created = all.map((k) => Date.parse(k.createdAt));
    expect(created).toEqual([...created].sort((x, y) => y - x));
    const bad = await getKeys(adminA, '?Count=0');
    expect([bad.status, bad.body.value.reason]).toEqual([400, 'VALIDATION_FAILED']);
  });

  it("logs each call of a key with its status (no query string), pages the log, and keeps the key's last use", async () => {
    const key = (await issue(adminA, { label: 'Logged', scopes: ['keys:read'] })).body.value;
    const caller = as(key.apiKey, 'bank-a');
    const before = Date.now();
    const calls = [
      await getKeys(caller, '?Offset=0&Count=1'),
      // An unknown query parameter is refused (400), and its value is not kept either.
      await getKeys(caller, '?Count=1&password=hunter2'),
      await requestsOf(caller, keyIdOf(adminB)),
      await requestsOf(caller, key.keyId),
    ];
    expect(calls.map((c) => c.status)).toEqual([200, 400, 404, 200]);
    // Refused before its scopes were granted: not a call the key made (nothing ran for it).
    expect((await issue(caller, { label: 'x', scopes: ['keys:read'] })).status).toBe(403);
    await flushLog();
    const page1 = await requestsOf(adminA, key.keyId, '&Count=2');
    const page2 = await requestsOf(adminA, key.keyId, '&Offset=2&Count=2');
    expect(page1.status).toBe(200);
    expect([page1.body.value.total, page2.body.value.total]).toEqual([4, 4]);
    const lines = [...page1.body.value.items, ...page2.body.value.items];
    // Newest first.
    expect(lines.map((l) => `${l.method} ${l.path} ${l.status}`)).toEqual([
      'GET /ApiKeys/GetKeyRequests 200',
      'GET /ApiKeys/GetKeyRequests 404',
      'GET /ApiKeys/GetKeys 400',
      'GET /ApiKeys/GetKeys 200',
    ]);
    expect(lines.map((l) => l.requestId)).toEqual(calls.map((c) => c.headers.get('x-request-id')).reverse());
    for (const l of lines) {
      expect(l.durationMs).toBeGreaterThanOrEqual(0);
      expect(Date.parse(l.at)).toBeGreaterThanOrEqual(before - 1000);
    }
    expect(JSON.stringify(lines)).not.toContain('hunter2');
    expect(JSON.stringify(lines)).not.toContain('Count=');
    // Last use: written with the first batch, then at most once a minute per replica.
    const lastUse = async () =>
      (await allKeys(adminA)).find((k) => k.keyId === key.keyId)?.lastUsedAt ?? null;
    const first = await lastUse();
    expect(first).not.toBeNull();
    expect(Date.parse(first ?? '')).toBeGreaterThanOrEqual(before - 1000);
    expect(Date.parse(first ?? '')).toBeLessThanOrEqual(Date.now());
    await getKeys(caller);
    await flushLog();
    expect(await lastUse()).toBe(first);
    const usageRows = await withClient(
      s.db.url,
      async (c) =>
        (await c.query('SELECT count(*)::int AS n FROM lending.api_key_usage WHERE key_id = $1', [key.keyId]))
          .rows[0].n as number,
    );
    expect(usageRows).toBe(1);
  });

  it("logs a key's calls of every lending area, not only this one's", async () => {
    const key = (await issue(adminA, { label: 'Any area', scopes: ['applications:read'] })).body.value;
    const res = await s.call(as(key.apiKey, 'bank-a'), 'GET', '/Applications/GetApplications?Count=1');
    await flushLog();
    const log = await requestsOf(adminA, key.keyId);
    expect(log.body.value.items.map((l) => `${l.method} ${l.path} ${l.status}`)).toEqual([
      `GET /Applications/GetApplications ${res.status}`,
    ]);
  });

  it("never shows or touches another organization's keys: 404, as for an unknown key", async () => {
    const bKey = keyIdOf(adminB);
    expect((await allKeys(adminA)).some((k) => k.keyId === bKey)).toBe(false);
    const reissued = await reissue(adminA, { keyId: bKey, overlapSeconds: 0 }, 'ru');
    expect([reissued.status, reissued.body.value.reason]).toEqual([404, 'API_KEY_NOT_FOUND']);
    expect(reissued.body.error).toBe(`Ключ ${bKey} не найден в вашей организации.`);
    const revoked = await revoke(adminA, bKey, 'kk');
    expect([revoked.status, revoked.body.value.reason]).toEqual([404, 'API_KEY_NOT_FOUND']);
    expect(revoked.body.error).toBe(`${bKey} кілті сіздің ұйымыңызда табылмады.`);
    const log = await requestsOf(adminA, bKey, '', 'es');
    expect([log.status, log.body.value.reason]).toEqual([404, 'API_KEY_NOT_FOUND']);
    expect(log.body.error).toBe(`No se encontró la clave ${bKey} en su organización.`);
    const unknown = await revoke(adminA, 'NoSuchKey123');
    expect([unknown.status, unknown.body.value.reason]).toEqual([404, 'API_KEY_NOT_FOUND']);
    // B's key is untouched, and B sees it.
    expect(await statusOf(adminB['X-Api-Key'], 'bank-b')).toEqual([200, null]);
    expect((await allKeys(adminB)).map((k) => k.keyId)).toEqual([bKey]);
    // A's key cannot even name B as its organization.
    const mismatch = await getKeys(as(adminA['X-Api-Key'], 'bank-b'));
    expect([mismatch.status, mismatch.body.value.reason]).toEqual([403, 'TENANT_MISMATCH']);
  });

  it('purges log lines older than the retention, in batches, for every organization', async () => {
    const aKey = keyIdOf(adminA);
    const bKey = keyIdOf(adminB);
    await withClient(s.db.url, (c) =>
      c.query(
        `INSERT INTO lending.api_key_requests (organization_id, key_id, at, method, path, status, duration_ms, request_id)
         SELECT org, key, now() - make_interval(days => age), 'GET', '/old', 200, 1, 'old-' || org || age || n
           FROM (VALUES ('bank-a', $1, 31), ('bank-a', $1, 45), ('bank-b', $2, 31), ('bank-b', $2, 29))
                AS t(org, key, age), generate_series(1, 3) AS n`,
        [aKey, bKey],
      ),
    );
    const count = () =>
      withClient(s.db.url, async (c) =>
        (
          await c.query(
            `SELECT organization_id AS org, count(*)::int AS n FROM lending.api_key_requests
              WHERE path = '/old' GROUP BY 1 ORDER BY 1`,
          )
        ).rows.map((r) => `${r.org}:${r.n}`),
      );
    expect(await count()).toEqual(['bank-a:6', 'bank-b:6']);
    // 30 days by default (LENDING_REQUEST_LOG_RETENTION_DAYS); batches of 2 rows here.
    expect(await s.app.get(KeyRequestLogRetention).purge({ batch: 2 })).toBe(9);
    expect(await count()).toEqual(['bank-b:3']);
    expect((await requestsOf(adminA, aKey)).body.value.items.some((l) => l.path === '/old')).toBe(false);
  });
});

describe('partner keys in the database-per-tenant mode (real PostgreSQL)', () => {
  let s: LendingFixture;
  let admin: Record<string, string>;

  beforeAll(async () => {
    s = await startLending('lending_api_keys_dbpt', {
      LENDING_TENANCY_MODE: 'database-per-tenant',
      LENDING_TENANT_DB_KEY: 'api-keys-test-tenant-db-key',
      LENDING_TENANT_POOLS_MAX: '1',
    });
    // No tenant database registered: the organization's lending data has nowhere to live yet.
    admin = await s.organization('bank-t');
  });

  afterAll(async () => {
    await s?.close();
  });

  it("keeps the keys' request log with the keys, on the control database: no tenant pool is taken", async () => {
    const calls = [
      await s.call(admin, 'GET', '/ApiKeys/GetKeys'),
      await s.call(admin, 'POST', '/ApiKeys/IssueKey', { label: 'x', scopes: ['keys:read'] }),
    ];
    expect(calls.map((c) => c.status)).toEqual([200, 201]);
    await s.app.get(KeyRequestLogWriter).flush();
    const log = await s.call<Page<Line>>(admin, 'GET', `/ApiKeys/GetKeyRequests?KeyId=${keyIdOf(admin)}`);
    expect([log.status, log.body.value.total]).toEqual([200, 2]);
    expect(s.app.get(TenantConnections).openPools).toEqual([]);
    const stored = await withClient(
      s.db.url,
      async (c) =>
        (await c.query('SELECT count(*)::int AS n FROM lending.api_key_requests')).rows[0].n as number,
    );
    expect(stored).toBe(2);
  });
});
