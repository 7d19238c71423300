import type { INestApplication } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { createTestDatabase, listen, request, serviceEnv } from '@platform/testing';
import { createLendingApp } from '../../src/bootstrap';
import { LoanApplication } from '../../src/applications/application.entity';
import { TenancyAdminService, asOrganizationId } from '@platform/tenancy';

type Env<T = unknown> = { success: boolean; code: number; error: string | null; value: T };

describe('lending partner keys and paged applications (real PostgreSQL)', () => {
  let app: INestApplication;
  let base: string;
  let db: Awaited<ReturnType<typeof createTestDatabase>>;
  let keyA: string;
  let keyB: string;
  let readOnlyLoans: string;

  beforeAll(async () => {
    db = await createTestDatabase('lending_apps');
    app = await createLendingApp(serviceEnv(db.url), false);
    base = await listen(app);
    const admin = app.get(TenancyAdminService);
    await admin.createOwner('bank-a', 'Bank A');
    await admin.createOwner('bank-b', 'Bank B');
    keyA = (await admin.issueKey('bank-a', 'a')).token;
    keyB = (await admin.issueKey('bank-b', 'b')).token;
    readOnlyLoans = (await admin.issueKey('bank-a', 'loans only', { scopes: ['loans:read'] })).token;
    const repo = app.get(DataSource).getRepository(LoanApplication);
    const [a, b] = [asOrganizationId('bank-a'), asOrganizationId('bank-b')];
    for (let i = 0; i < 25; i++) await repo.insert({ organizationId: a, status: 'draft' });
    await repo.insert({ organizationId: b, status: 'draft' });
  });

  afterAll(async () => {
    await app?.close();
    await db?.drop();
  });

  const get = (query: string, key: string, org: string, lang = 'en') =>
    request<
      Env<{
        items: { id: string }[];
        total: number;
        reason?: string;
        fields?: { field: string; rule: string }[];
      }>
    >(`${base}/Applications/GetApplications${query}`, {
      headers: { 'X-Api-Key': key, 'Organization-Id': org, 'Language-Code': lang },
    });

  it('pages with Offset and Count and reports the total of the organization only', async () => {
    const first = await get('?Offset=0&Count=10', keyA, 'bank-a');
    expect(first.status).toBe(200);
    expect(first.body.value.total).toBe(25);
    expect(first.body.value.items).toHaveLength(10);
    const last = await get('?Offset=20&Count=10', keyA, 'bank-a');
    expect(last.body.value.items).toHaveLength(5);
    const ids = new Set([...first.body.value.items, ...last.body.value.items].map((i) => i.id));
    expect(ids.size).toBe(15);
    const other = await get('', keyB, 'bank-b');
    expect(other.body.value.total).toBe(1);
  });

  it('rejects out-of-range paging with localised field errors', async () => {
    const res = await get('?Offset=-1&Count=100000', keyA, 'bank-a', 'tr');
    expect(res.status).toBe(400);
    expect(res.body.value.reason).toBe('VALIDATION_FAILED');
    expect(res.body.value.fields?.map((f) => `${f.field}:${f.rule}`).sort()).toEqual([
      'Count:max',
      'Offset:min',
    ]);
    expect(res.body.error).toBe('İstekte geçersiz alanlar var.');
  });

  it('refuses a key without the route scope, naming the scope', async () => {
    const res = await get('', readOnlyLoans, 'bank-a', 'es');
    expect(res.status).toBe(403);
    expect(res.body.value).toMatchObject({ reason: 'SCOPE_MISSING', missingScopes: ['applications:read'] });
    expect(res.body.error).toBe('La clave de API no tiene los permisos: applications:read.');
  });

  it("refuses another organization's header, a missing header and a revoked key", async () => {
    expect((await get('', keyA, 'bank-b')).body.value.reason).toBe('TENANT_MISMATCH');
    const missing = await request<Env<{ reason: string }>>(`${base}/Applications/GetApplications`, {
      headers: { 'X-Api-Key': keyA },
    });
    expect([missing.status, missing.body.value.reason]).toEqual([400, 'TENANT_HEADER_MISSING']);
    const admin = app.get(TenancyAdminService);
    const temp = await admin.issueKey('bank-a', 'temp');
    expect((await get('', temp.token, 'bank-a')).status).toBe(200);
    expect(await admin.revokeKey(temp.keyId)).toBe(true);
    const revoked = await get('', temp.token, 'bank-a');
    expect([revoked.status, revoked.body.value.reason]).toEqual([401, 'API_KEY_REVOKED']);
  });
});

describe('partner key lifecycle through the shared tenancy library (real PostgreSQL)', () => {
  let app: INestApplication;
  let base: string;
  let db: Awaited<ReturnType<typeof createTestDatabase>>;
  let admin: TenancyAdminService;

  beforeAll(async () => {
    db = await createTestDatabase('lending_keys');
    app = await createLendingApp(serviceEnv(db.url), false);
    base = await listen(app);
    admin = app.get(TenancyAdminService);
    await admin.createOwner('bank-a', 'Bank A');
  });

  afterAll(async () => {
    await app?.close();
    await db?.drop();
  });

  const status = async (token: string) => {
    const res = await request<Env<{ reason?: string }>>(`${base}/Applications/GetApplications`, {
      headers: { 'X-Api-Key': token, 'Organization-Id': 'bank-a' },
    });
    return [res.status, res.body.value.reason ?? null];
  };

  it('a reissued key works at once and the old one until the overlap ends, then API_KEY_EXPIRED', async () => {
    const old = await admin.issueKey('bank-a', 'rollover', { scopes: ['applications:read'] });
    const next = await admin.reissueKey(old.keyId, 2);
    expect(next).toMatchObject({
      ownerId: 'bank-a',
      scopes: ['applications:read'],
      replacedKeyId: old.keyId,
    });
    expect(next.token).not.toBe(old.token);
    expect(await status(next.token)).toEqual([200, null]);
    expect(await status(old.token)).toEqual([200, null]);
    await new Promise((r) => setTimeout(r, 2100));
    expect(await status(old.token)).toEqual([401, 'API_KEY_EXPIRED']);
    expect(await status(next.token)).toEqual([200, null]);
    // The list shows both, never a secret.
    const listed = await admin.listKeys('bank-a');
    expect(listed.map((k) => k.keyId)).toEqual(expect.arrayContaining([old.keyId, next.keyId]));
    expect(JSON.stringify(listed)).not.toContain(next.token.slice(-40));
  });

  it('reissue with no overlap stops the old key at once; a revoked or unknown key cannot be reissued', async () => {
    const old = await admin.issueKey('bank-a', 'instant');
    const next = await admin.reissueKey(old.keyId, 0);
    expect(await status(old.token)).toEqual([401, 'API_KEY_EXPIRED']);
    expect(await status(next.token)).toEqual([200, null]);
    await admin.revokeKey(next.keyId);
    await expect(admin.reissueKey(next.keyId, 60)).rejects.toThrow(`no live key ${next.keyId}`);
    await expect(admin.reissueKey('NoSuchKey123', 60)).rejects.toThrow('no live key');
  });

  it('an overlap never extends a key already due to stop sooner; concurrent reissues of one key yield one', async () => {
    const first = await admin.issueKey('bank-a', 'chain');
    const second = await admin.reissueKey(first.keyId, 3600);
    const firstStops = new Date(second.replacedKeyExpiresAt).getTime();
    expect(firstStops).toBeGreaterThan(Date.now() + 3500 * 1000);
    // Reissuing the first key again (it is still live) with a longer overlap keeps its earlier end.
    const third = await admin.reissueKey(first.keyId, 7200);
    expect(new Date(third.replacedKeyExpiresAt).getTime()).toBe(firstStops);

    const key = await admin.issueKey('bank-a', 'race');
    const results = await Promise.allSettled([
      admin.reissueKey(key.keyId, 0),
      admin.reissueKey(key.keyId, 0),
    ]);
    // The row lock serialises them: the second sees the key already stopped and refuses.
    expect(results.map((r) => r.status).sort()).toEqual(['fulfilled', 'rejected']);
    expect((await admin.listKeys('bank-a')).filter((k) => k.label === 'race')).toHaveLength(2);
  });

  it("refuses another service's key, a key of an unknown tenant and scopes the service does not have", async () => {
    const token = (await admin.issueKey('bank-a', 'prefix')).token;
    expect(await status(token.replace(/^lnd_/, 'ver_'))).toEqual([401, 'API_KEY_INVALID']);
    await expect(admin.issueKey('no-such-bank', 'x')).rejects.toThrow('unknown organization: no-such-bank');
    await expect(admin.issueKey('bank-a', 'x', { scopes: ['cases:read'] })).rejects.toThrow(
      'unknown scopes: cases:read',
    );
  });
});

describe('key cache: a key revoked by another replica stops working within API_KEY_CACHE_TTL_MS', () => {
  const TTL = 3000;
  let db: Awaited<ReturnType<typeof createTestDatabase>>;
  let a: INestApplication;
  let b: INestApplication;
  let baseA: string;

  beforeAll(async () => {
    db = await createTestDatabase('lending_key_cache');
    const env = serviceEnv(db.url, { API_KEY_CACHE_TTL_MS: String(TTL) });
    a = await createLendingApp(env, false);
    b = await createLendingApp(env, false);
    baseA = await listen(a);
    await a.get(TenancyAdminService).createOwner('bank-a', 'Bank A');
  });

  afterAll(async () => {
    await a?.close();
    await b?.close();
    await db?.drop();
  });

  const statusOnA = async (token: string) =>
    (
      await request(`${baseA}/Applications/GetApplications`, {
        headers: { 'X-Api-Key': token, 'Organization-Id': 'bank-a' },
      })
    ).status;

  it('replica A serves from its cache until the bound, then asks the database and refuses', async () => {
    const key = await b.get(TenancyAdminService).issueKey('bank-a', 'cached');
    expect(await statusOnA(key.token)).toBe(200);
    // Revoked through replica B: A's cache does not know yet.
    expect(await b.get(TenancyAdminService).revokeKey(key.keyId)).toBe(true);
    const revokedAt = Date.now();
    // Still within the bound: served from A's cache, no database round trip (that is the point).
    expect(await statusOnA(key.token)).toBe(200);
    await new Promise((r) => setTimeout(r, TTL + 50));
    expect(await statusOnA(key.token)).toBe(401);
    expect(Date.now() - revokedAt).toBeGreaterThanOrEqual(TTL);
  });

  it('a revoke through the same replica is effective at once', async () => {
    const key = await a.get(TenancyAdminService).issueKey('bank-a', 'local');
    expect(await statusOnA(key.token)).toBe(200);
    await a.get(TenancyAdminService).revokeKey(key.keyId);
    expect(await statusOnA(key.token)).toBe(401);
  });
});
