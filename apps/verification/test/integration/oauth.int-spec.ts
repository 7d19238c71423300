import type { INestApplication } from '@nestjs/common';
import { ClientCredentials } from 'simple-oauth2';
import { DataSource } from 'typeorm';
import { createTestDatabase, listen, request, serviceEnv } from '@platform/testing';
import { TenancyAdminService } from '@platform/tenancy';
import { createVerificationApp } from '../../src/bootstrap';
import { OAuthToken } from '../../src/access/oauth-token.entity';

type Env<T = Record<string, unknown>> = { success: boolean; code: number; error: string | null; value: T };

/** OAuth 2.0 client credentials (RFC 6749 4.4) through an independent client library, simple-oauth2. */
describe('verification OAuth client credentials (real PostgreSQL)', () => {
  let app: INestApplication;
  let base: string;
  let db: Awaited<ReturnType<typeof createTestDatabase>>;
  let admin: TenancyAdminService;
  let key: string;

  const client = (secret: string, authorizationMethod: 'header' | 'body') =>
    new ClientCredentials({
      client: { id: 'org-a', secret },
      auth: { tokenHost: base, tokenPath: '/api/v1/oauth/token' },
      options: { authorizationMethod },
    });

  const form = (body: string, headers: Record<string, string> = {}) =>
    fetch(`${base}/api/v1/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
      body,
    });

  const cases = (token: string) =>
    request<Env<{ items: unknown[]; total: number; reason?: string }>>(`${base}/api/v1/verification-cases`, {
      headers: { Authorization: `Bearer ${token}` },
    });

  beforeAll(async () => {
    db = await createTestDatabase('verification_oauth');
    app = await createVerificationApp(serviceEnv(db.url), false);
    base = await listen(app);
    admin = app.get(TenancyAdminService);
    await admin.createOwner('org-a', 'A');
    key = (await admin.issueKey('org-a', 'oauth')).token;
  });

  afterAll(async () => {
    await app?.close();
    await db?.drop();
  });

  it('issues a token with HTTP Basic client authentication, and the token calls the API', async () => {
    const token = await client(key, 'header').getToken({});
    expect(token.token.token_type).toBe('Bearer');
    expect(token.token.expires_in).toBe(600);
    expect(String(token.token.scope).split(' ')).toHaveLength(11);
    const res = await cases(String(token.token.access_token));
    expect([res.status, res.body.success]).toEqual([200, true]);
  });

  it('issues a token with client_id and client_secret in the body, narrowed to the requested scope', async () => {
    const token = await client(key, 'body').getToken({ scope: 'cases:read' });
    expect(token.token.scope).toBe('cases:read');
    const access = String(token.token.access_token);
    expect((await cases(access)).status).toBe(200);
    const create = await request<Env<{ reason: string; missingScopes: string[] }>>(
      `${base}/api/v1/verification-cases`,
      {
        headers: { Authorization: `Bearer ${access}`, 'Idempotency-Key': 'k-1' },
        body: {
          externalReferenceId: 'APP-1',
          applicantType: 'Individual',
          applicantCountryCode: 'KZ',
          reportCountryCode: 'KZ',
        },
      },
    );
    expect([create.status, create.body.value.reason, create.body.value.missingScopes]).toEqual([
      403,
      'SCOPE_MISSING',
      ['cases:write'],
    ]);
  });

  it('answers exactly RFC 6749 5.1, not the envelope, and never to be cached', async () => {
    const res = await form(`grant_type=client_credentials&client_id=org-a&client_secret=${key}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    const body = (await res.json()) as Record<string, unknown>;
    expect(Object.keys(body).sort()).toEqual(['access_token', 'expires_in', 'scope', 'token_type']);
  });

  it('refuses a wrong secret with 401 invalid_client in the RFC shape, a challenge for Basic included', async () => {
    const wrong = key.slice(0, -4) + 'AAAA';
    const err = await client(wrong, 'header')
      .getToken({})
      .then(() => undefined)
      .catch(
        (e: { output?: { statusCode: number; payload: unknown; headers: Record<string, string> } }) => e,
      );
    expect(err?.output?.statusCode).toBe(401);
    const res = await form('grant_type=client_credentials', {
      Authorization: `Basic ${Buffer.from(`org-a:${wrong}`).toString('base64')}`,
    });
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toMatch(/^Basic /);
    const body = (await res.json()) as Record<string, unknown>;
    expect(Object.keys(body).sort()).toEqual(['error', 'error_description']);
    expect(body.error).toBe('invalid_client');
    // Another organization's id with a valid key is the same failure.
    const other = await form(`grant_type=client_credentials&client_id=org-b&client_secret=${key}`);
    expect([other.status, ((await other.json()) as { error: string }).error]).toEqual([
      401,
      'invalid_client',
    ]);
    // A client_id no organization can have (NUL, control characters, a lone surrogate), in the body
    // or in Basic: the same unknown client, never a database error.
    for (const id of ['%00', 'org-a%00', 'a%01b', '%ED%A0%80']) {
      const res = await form(`grant_type=client_credentials&client_id=${id}&client_secret=${key}`);
      expect([id, res.status, ((await res.json()) as { error: string }).error]).toEqual([
        id,
        401,
        'invalid_client',
      ]);
    }
    const basic = await form('grant_type=client_credentials', {
      Authorization: `Basic ${Buffer.from(`org-a%00:${key}`).toString('base64')}`,
    });
    expect([basic.status, ((await basic.json()) as { error: string }).error]).toEqual([
      401,
      'invalid_client',
    ]);
  });

  it('answers the other RFC 6749 5.2 errors', async () => {
    const errorOf = async (res: Response) => [res.status, ((await res.json()) as { error: string }).error];
    expect(await errorOf(await form(`grant_type=password&client_id=org-a&client_secret=${key}`))).toEqual([
      400,
      'unsupported_grant_type',
    ]);
    expect(await errorOf(await form(`client_id=org-a&client_secret=${key}`))).toEqual([
      400,
      'invalid_request',
    ]);
    // A form over 8 KiB, or not UTF-8, is said to be that, not "not form-encoded".
    for (const body of [
      `grant_type=client_credentials&client_id=org-a&client_secret=${key}&pad=${'x'.repeat(9000)}`,
      Buffer.from([...Buffer.from('grant_type=client_credentials&client_id='), 0xff, 0xfe]),
    ]) {
      const res = await fetch(`${base}/api/v1/oauth/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body,
      });
      expect([res.status, await res.json()]).toEqual([
        400,
        { error: 'invalid_request', error_description: 'The form body must be UTF-8 and at most 8 KiB.' },
      ]);
    }
    expect(
      await errorOf(
        await form(`grant_type=client_credentials&client_id=org-a&client_secret=${key}`, {
          Authorization: `Basic ${Buffer.from(`org-a:${key}`).toString('base64')}`,
        }),
      ),
    ).toEqual([400, 'invalid_request']);
    expect(
      await errorOf(
        await form(
          `grant_type=client_credentials&grant_type=client_credentials&client_id=org-a&client_secret=${key}`,
        ),
      ),
    ).toEqual([400, 'invalid_request']);
    const narrow = (await admin.issueKey('org-a', 'narrow', { scopes: ['cases:read'] })).token;
    expect(
      await errorOf(
        await form(`grant_type=client_credentials&client_id=org-a&client_secret=${narrow}&scope=cases:write`),
      ),
    ).toEqual([400, 'invalid_scope']);
    const json = await fetch(`${base}/api/v1/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ grant_type: 'client_credentials', client_id: 'org-a', client_secret: key }),
    });
    expect(await errorOf(json)).toEqual([400, 'invalid_request']);
  });

  it("stops an expired token and a revoked key's token with 401", async () => {
    const k = await admin.issueKey('org-a', 'short');
    const t1 = String((await client(k.token, 'body').getToken({})).token.access_token);
    const t2 = String((await client(k.token, 'body').getToken({})).token.access_token);
    expect((await cases(t1)).status).toBe(200);
    const { createHash } = await import('node:crypto');
    await app
      .get(DataSource)
      .getRepository(OAuthToken)
      .update(
        { tokenHash: createHash('sha256').update(t1).digest('hex') },
        { expiresAt: new Date(Date.now() - 1000) },
      );
    const expired = await cases(t1);
    expect([expired.status, expired.body.value.reason]).toEqual([401, 'BEARER_TOKEN_EXPIRED']);
    expect(expired.headers.get('www-authenticate')).toMatch(/^Bearer /);
    expect((await cases(t2)).status).toBe(200);
    await admin.revokeKey(k.keyId);
    const revoked = await cases(t2);
    expect([revoked.status, revoked.body.value.reason]).toEqual([401, 'BEARER_TOKEN_REVOKED']);
    const junk = await cases('vat_nothing');
    expect([junk.status, junk.body.value.reason]).toEqual([401, 'BEARER_TOKEN_INVALID']);
  });
});
