import type { INestApplication } from '@nestjs/common';
import { TenancyAdminService } from '@platform/tenancy';
import { createTestDatabase, listen, request, serviceEnv } from '@platform/testing';
import { KeyRequestLogWriter } from '../../src/api-keys/key-request-log.writer';
import { createLendingApp } from '../../src/bootstrap';
import { LendingConfig } from '../../src/config/lending.config';
import type { Env } from './lending-fixture';

type Issued = { apiKey: string; keyId: string };

/**
 * Two lending replicas on one database, with the default key cache (API_KEY_CACHE_TTL_MS): a key
 * revoked through one stops at once there and on the other within the cache's lifetime.
 */
describe('partner keys across two replicas (real PostgreSQL)', () => {
  let db: Awaited<ReturnType<typeof createTestDatabase>>;
  let a: INestApplication;
  let b: INestApplication;
  let baseA: string;
  let baseB: string;
  let admin: Record<string, string>;

  beforeAll(async () => {
    db = await createTestDatabase('lending_key_replicas');
    const env = serviceEnv(db.url);
    a = await createLendingApp(env, false);
    b = await createLendingApp(env, false);
    baseA = await listen(a);
    baseB = await listen(b);
    const tenancy = a.get(TenancyAdminService);
    await tenancy.createOwner('bank-a', 'Bank A');
    admin = { 'X-Api-Key': (await tenancy.issueKey('bank-a', 'admin')).token, 'Organization-Id': 'bank-a' };
  });

  afterAll(async () => {
    await a?.close();
    await b?.close();
    await db?.drop();
  });

  const call = <T>(base: string, headers: Record<string, string>, path: string, body?: unknown) =>
    request<Env<T>>(`${base}${path}`, { headers, body });
  const use = async (base: string, token: string) => {
    const res = await call(base, { 'X-Api-Key': token, 'Organization-Id': 'bank-a' }, '/ApiKeys/GetKeys');
    return { status: res.status, reason: res.body.value.reason ?? null };
  };
  const issue = async () =>
    (await call<Issued>(baseA, admin, '/ApiKeys/IssueKey', { label: 'replicated', scopes: ['keys:read'] }))
      .body.value;

  it('stops a key revoked through replica A at once on A, and on B within API_KEY_CACHE_TTL_MS + 1 s', async () => {
    const ttl = a.get(LendingConfig).API_KEY_CACHE_TTL_MS;
    expect(ttl).toBe(2000); // the default: what a deployment gets unless it says otherwise
    const figures: number[] = [];
    for (let round = 0; round < 3; round++) {
      const key = await issue();
      // B looks the key up and caches it; A does too.
      expect(await use(baseB, key.apiKey)).toEqual({ status: 200, reason: null });
      expect(await use(baseA, key.apiKey)).toEqual({ status: 200, reason: null });
      // Measured from before the revoke is sent: the commit can only be later, so this never flatters.
      const revokedAt = Date.now();
      const revoked = await call(baseA, admin, '/ApiKeys/RevokeKey', { keyId: key.keyId });
      expect(revoked.status).toBe(200);
      expect(await use(baseA, key.apiKey)).toEqual({ status: 401, reason: 'API_KEY_REVOKED' });
      let last = await use(baseB, key.apiKey);
      while (last.status === 200 && Date.now() - revokedAt < ttl + 3000) {
        await new Promise((r) => setTimeout(r, 20));
        last = await use(baseB, key.apiKey);
      }
      const stoppedAfter = Date.now() - revokedAt;
      expect(last).toEqual({ status: 401, reason: 'API_KEY_REVOKED' });
      expect(stoppedAfter).toBeLessThanOrEqual(ttl + 1000);
      figures.push(stoppedAfter);
    }
    process.stdout.write(
      `revoked key still accepted by the other replica for ${figures.join(', ')} ms ` +
        `(API_KEY_CACHE_TTL_MS ${ttl}, bound ${ttl + 1000})\n`,
    );
  });

  it("writes both replicas' calls of a key into one request log", async () => {
    const key = await issue();
    expect((await use(baseA, key.apiKey)).status).toBe(200);
    expect((await use(baseB, key.apiKey)).status).toBe(200);
    await Promise.all([a, b].map((app) => app.get(KeyRequestLogWriter).flush()));
    const log = await call<{ items: { path: string }[]; total: number }>(
      baseB,
      admin,
      `/ApiKeys/GetKeyRequests?KeyId=${key.keyId}`,
    );
    expect(log.body.value.total).toBe(2);
    const keys = await call<{ items: { keyId: string; lastUsedAt: string | null }[] }>(
      baseA,
      admin,
      '/ApiKeys/GetKeys?Count=500',
    );
    expect(keys.body.value.items.find((k) => k.keyId === key.keyId)?.lastUsedAt).not.toBeNull();
  });
});
