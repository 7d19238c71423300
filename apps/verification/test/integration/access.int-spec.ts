import type { INestApplication } from '@nestjs/common';
import { createTestDatabase, listen, request, serviceEnv } from '@platform/testing';
import { TenancyAdminService } from '@platform/tenancy';
import { createVerificationApp } from '../../src/bootstrap';
import { ActivityLogWriter } from '../../src/access/activity-log.writer';

type Env<T = Record<string, unknown>> = { success: boolean; code: number; error: string | null; value: T };

/** IP allowlist (trusted-proxy rule), activity history and usage, over real HTTP and PostgreSQL. */
describe('verification access: IP allowlist, activity, usage (real PostgreSQL)', () => {
  let app: INestApplication;
  let untrusting: INestApplication;
  let base: string;
  let baseUntrusting: string;
  let db: Awaited<ReturnType<typeof createTestDatabase>>;
  let admin: TenancyAdminService;
  let key: string;
  let keyId: string;

  const asKey = (from?: string, extra: Record<string, string> = {}) => ({
    'X-API-Key': key,
    'Service-Organization-Id': 'org-a',
    ...(from ? { 'X-Forwarded-For': from } : {}),
    ...extra,
  });
  const putList = (ipAllowlist: string[], from: string) =>
    request<Env<{ ipAllowlist: string[]; reason?: string; invalidEntries?: string[] }>>(
      `${base}/api/v1/organization/settings/ip-allowlist`,
      { method: 'PUT', headers: asKey(from), body: { ipAllowlist } },
    );
  const listCases = (from: string, at = base) =>
    request<Env<{ reason?: string }>>(`${at}/api/v1/verification-cases`, { headers: asKey(from) });
  const tokenFrom = (from: string) =>
    fetch(`${base}/api/v1/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'X-Forwarded-For': from },
      body: `grant_type=client_credentials&client_id=org-a&client_secret=${key}`,
    });

  beforeAll(async () => {
    db = await createTestDatabase('verification_access');
    app = await createVerificationApp(serviceEnv(db.url), false);
    base = await listen(app);
    untrusting = await createVerificationApp(
      { ...serviceEnv(db.url), TRUSTED_PROXIES: '192.0.2.1/32', API_KEY_CACHE_TTL_MS: '0' },
      false,
    );
    baseUntrusting = await listen(untrusting);
    admin = app.get(TenancyAdminService);
    await admin.createOwner('org-a', 'A');
    await admin.createOwner('org-b', 'B');
    const issued = await admin.issueKey('org-a', 'access');
    [key, keyId] = [issued.token, issued.keyId];
  });

  afterAll(async () => {
    await untrusting?.close();
    await app?.close();
    await db?.drop();
  });

  it('an empty list allows every address', async () => {
    expect((await listCases('198.51.100.1')).status).toBe(200);
    expect((await listCases('2001:db8:ffff::1')).status).toBe(200);
  });

  it('validates and normalises IPv4 and IPv6 blocks, and refuses a list that excludes the caller', async () => {
    const bad = await putList(['10.0.0.0/33', 'example.com', '203.0.113.0/24'], '203.0.113.9');
    expect([bad.status, bad.body.value.reason, bad.body.value.invalidEntries]).toEqual([
      400,
      'IP_ALLOWLIST_INVALID',
      ['10.0.0.0/33', 'example.com'],
    ]);
    const lockout = await putList(['203.0.113.0/24'], '198.51.100.1');
    expect([lockout.status, lockout.body.value.reason]).toEqual([422, 'IP_ALLOWLIST_LOCKOUT']);
    const tooMany = await putList(
      Array.from({ length: 101 }, (_, i) => `10.0.${i}.0/24`),
      '10.0.0.1',
    );
    expect([tooMany.status, tooMany.body.value.reason]).toEqual([400, 'VALIDATION_FAILED']);
    const ok = await putList(['203.0.113.77/24', '2001:DB8:0:0::1/48', '::ffff:198.51.100.7'], '203.0.113.9');
    expect(ok.status).toBe(200);
    expect(ok.body.value.ipAllowlist).toEqual(['203.0.113.0/24', '2001:db8::/48', '198.51.100.7/32']);
  });

  it('allows and refuses IPv4 and IPv6 callers by the address a trusted proxy forwards', async () => {
    expect((await listCases('203.0.113.200')).status).toBe(200);
    expect((await listCases('2001:db8:0:1::5')).status).toBe(200);
    const v4 = await listCases('198.51.100.8');
    expect([v4.status, v4.body.value.reason]).toEqual([403, 'IP_NOT_ALLOWED']);
    const v6 = await listCases('2001:db9::1');
    expect([v6.status, v6.body.value.reason]).toEqual([403, 'IP_NOT_ALLOWED']);
    // A client cannot move its address by adding entries on the left of the chain.
    const spoof = await listCases('203.0.113.1, 198.51.100.8');
    expect(spoof.status).toBe(403);
  });

  it("ignores an untrusted peer's X-Forwarded-For: its own address is the client", async () => {
    // Peer 127.0.0.1 is not in this replica's TRUSTED_PROXIES; the header's allowed address is ignored.
    const res = await listCases('203.0.113.200', baseUntrusting);
    expect([res.status, res.body.value.reason]).toEqual([403, 'IP_NOT_ALLOWED']);
    expect(res.body.error).toContain('127.0.0.1');
  });

  it('applies to bearer tokens and to the token endpoint too', async () => {
    const allowed = await tokenFrom('203.0.113.5');
    expect(allowed.status).toBe(200);
    const token = ((await allowed.json()) as { access_token: string }).access_token;
    const refused = await tokenFrom('198.51.100.9');
    expect(refused.status).toBe(403);
    expect(await refused.json()).toMatchObject({ error: 'unauthorized_client', reason: 'IP_NOT_ALLOWED' });
    const call = (from: string) =>
      request<Env<{ reason?: string }>>(`${base}/api/v1/verification-cases`, {
        headers: { Authorization: `Bearer ${token}`, 'X-Forwarded-For': from },
      });
    expect((await call('203.0.113.5')).status).toBe(200);
    const outside = await call('198.51.100.9');
    expect([outside.status, outside.body.value.reason]).toEqual([403, 'IP_NOT_ALLOWED']);
  });

  it('records authenticated writes with actor, route pattern and target; lists them newest first', async () => {
    await putList([], '203.0.113.9');
    const created = await request<Env<{ id: string }>>(`${base}/api/v1/verification-cases`, {
      headers: asKey(undefined, { 'Idempotency-Key': 'act-1' }),
      body: {
        externalReferenceId: 'APP-ACT',
        applicantType: 'Individual',
        applicantCountryCode: 'KZ',
        reportCountryCode: 'KZ',
      },
    });
    expect(created.status).toBe(201);
    const id = created.body.value.id;
    const cancel = await request(`${base}/api/v1/verification-cases/${id}/cancel`, {
      method: 'POST',
      headers: asKey(),
    });
    expect(cancel.status).toBe(200);
    await request(`${base}/api/v1/verification-cases?x=1`, { headers: asKey() });
    await app.get(ActivityLogWriter).flush();
    const log = await request<
      Env<{
        items: {
          actor: string;
          actorKind: string;
          method: string;
          route: string;
          targetId: string;
          status: number;
        }[];
        total: number;
      }>
    >(`${base}/api/v1/activity?actor=${keyId}&limit=3`, { headers: asKey() });
    expect(log.status).toBe(200);
    expect(
      log.body.value.items
        .slice(0, 2)
        .map((i) => [i.method, i.route, i.targetId, i.status, i.actor, i.actorKind]),
    ).toEqual([
      ['POST', '/api/v1/verification-cases/:id/cancel', id, 200, keyId, 'api-key'],
      ['POST', '/api/v1/verification-cases', id, 201, keyId, 'api-key'],
    ]);
    // Reads are not activity; the PUTs of the allowlist are.
    expect(log.body.value.total).toBeGreaterThanOrEqual(4);
    const otherOrg = (await admin.issueKey('org-b', 'b')).token;
    const theirs = await request<Env<{ total: number }>>(`${base}/api/v1/activity`, {
      headers: { 'X-API-Key': otherOrg, 'Service-Organization-Id': 'org-b' },
    });
    expect(theirs.body.value.total).toBe(0);
    const range = await request<Env<{ reason: string }>>(
      `${base}/api/v1/activity?from=2026-02-01T00:00:00Z&to=2026-01-01T00:00:00Z`,
      { headers: asKey() },
    );
    expect([range.status, range.body.value.reason]).toEqual([400, 'ACTIVITY_RANGE_INVALID']);
  });

  it("counts the month's checks (cases created) and other usage", async () => {
    const month = new Date().toISOString().slice(0, 7);
    const usage = await request<Env<{ month: string; checks: number; casesCreated: number }>>(
      `${base}/api/v1/usage?month=${month}`,
      { headers: asKey() },
    );
    expect(usage.status).toBe(200);
    expect(usage.body.value).toMatchObject({ month, checks: 1, casesCreated: 1 });
    const past = await request<Env<{ checks: number }>>(`${base}/api/v1/usage?month=2020-01`, {
      headers: asKey(),
    });
    expect(past.body.value.checks).toBe(0);
    const bad = await request(`${base}/api/v1/usage?month=2026-13`, { headers: asKey() });
    expect(bad.status).toBe(400);
  });
});
