import { createHash } from 'node:crypto';
import { Controller, Get, Module, type INestApplication } from '@nestjs/common';
import { SignJWT, exportSPKI, generateKeyPair, type CryptoKey } from 'jose';
import { CurrentPrincipal } from '@platform/auth';
import { createHttpApp } from '@platform/envelope';
import {
  createTestDatabase,
  listen,
  rawRequest,
  readRouteManifest,
  request,
  runFuzz,
  serviceEnv,
  withClient,
} from '@platform/testing';
import { CalendarAppModule } from '../../src/app.module';
import { DavAccess, type PersonPrincipal } from '../../src/auth/calendar.access';
import { ensureAccount, ensureProduct, issueProductKey } from './calendar-admin';

type Env<T = Record<string, unknown>> = { success: boolean; code: number; error: string | null; value: T };
type Listed = {
  id: string;
  label: string;
  username: string;
  created_at: string;
  last_used_at: string | null;
};
type Created = Listed & { password: string; caldav_url: string };
type Failure = { reason: string; requestId: string };

/** A route of scheme `dav`, as the CalDAV controller declares them, answering who the guard let in. */
@Controller('dav-probe')
@DavAccess()
class DavProbeController {
  @Get()
  who(@CurrentPrincipal() p: PersonPrincipal) {
    return p;
  }
}

@Module({})
class DavProbeHost {}

const PER_USERNAME = 10;
const PER_IP = 15;
const CAP = 5;

/**
 * CalDAV app passwords and the `dav` scheme (decision 0041) on real PostgreSQL, through two replicas
 * of the calendar on one database (the DAV probe route beside the real API), as a client calls them.
 */
describe('CalDAV app passwords and Basic/Bearer login (real PostgreSQL, two replicas)', () => {
  let db: Awaited<ReturnType<typeof createTestDatabase>>;
  let apps: INestApplication[] = [];
  let replicas: string[] = [];
  let signingKey: CryptoKey;
  let addresses = 0;

  const session = (subject: string, roles: string[] = [], account = 'acme') =>
    new SignJWT({ account_id: account, roles })
      .setProtectedHeader({ alg: 'RS256' })
      .setSubject(subject)
      .setIssuer('https://id.test')
      .setAudience('calendar')
      .setExpirationTime('10m')
      .sign(signingKey);
  /** A client address of its own (the replicas trust their loopback peer's X-Forwarded-For). */
  const newAddress = () => `198.51.100.${++addresses}`;
  const basic = (username: string, password: string) =>
    `Basic ${Buffer.from(`${username}:${password}`, 'utf8').toString('base64')}`;
  const probe = (headers: Record<string, string>, replica = 0) =>
    rawRequest(`${replicas[replica]}/dav-probe`, {
      headers: { 'X-Forwarded-For': newAddress(), ...headers },
    });
  const login = (username: string, password: string, from = newAddress(), replica = 0) =>
    rawRequest(`${replicas[replica]}/dav-probe`, {
      headers: { Authorization: basic(username, password), 'X-Forwarded-For': from },
    });
  const create = async (subject: string, label: string, account = 'acme', roles: string[] = []) =>
    request<Env<Created>>(`${replicas[0]}/Calendar/app-passwords`, {
      headers: { PlatformSession: await session(subject, roles, account) },
      body: { label },
    });
  const created = async (subject: string, label = 'iPhone', account = 'acme') => {
    const res = await create(subject, label, account);
    expect(res.status).toBe(201);
    return res.body.value;
  };
  const listOf = async (subject: string, account = 'acme') =>
    request<Env<{ items: Listed[]; total: number }>>(`${replicas[1]}/Calendar/app-passwords`, {
      headers: { PlatformSession: await session(subject, [], account) },
    });
  const revoke = async (subject: string, id: string, account = 'acme') =>
    request<Env<Listed & { revoked_at: string }>>(`${replicas[1]}/Calendar/app-passwords/${id}`, {
      method: 'DELETE',
      headers: { PlatformSession: await session(subject, [], account) },
    });
  const refused = (res: Awaited<ReturnType<typeof rawRequest>>, status: number, reason: string) => {
    expect({ status: res.status, reason: (res.json?.value as Failure | undefined)?.reason }).toEqual({
      status,
      reason,
    });
    expect(res.json).toMatchObject({ success: false, code: status });
  };
  const lastUsed = (id: string) =>
    withClient(
      db.url,
      async (c) =>
        (
          await c.query<{ at: Date | null }>(
            `SELECT last_used_at AS at FROM calendar.app_passwords WHERE id = $1`,
            [id],
          )
        ).rows[0].at,
    );

  beforeAll(async () => {
    const pair = await generateKeyPair('RS256');
    signingKey = pair.privateKey;
    db = await createTestDatabase('cal_app_passwords');
    const env = serviceEnv(db.url, {
      SESSION_PUBLIC_KEY_PEM: await exportSPKI(pair.publicKey),
      SESSION_ISSUER: 'https://id.test',
      CALENDAR_PUBLIC_URL: 'https://platform.example.test/',
      CALENDAR_APP_PASSWORDS_PER_PERSON: String(CAP),
      CALENDAR_DAV_AUTH_FAILURES_PER_USERNAME: String(PER_USERNAME),
      CALENDAR_DAV_AUTH_FAILURES_PER_IP: String(PER_IP),
    });
    // One after the other: the first runs the migrations.
    for (let i = 0; i < 2; i++) {
      const app = await createHttpApp(
        {
          module: DavProbeHost,
          imports: [CalendarAppModule.register(env)],
          controllers: [DavProbeController],
        },
        false,
      );
      apps.push(app);
      replicas.push(await listen(app));
    }
    await ensureAccount(apps[0], 'acme', 'Acme');
    await ensureAccount(apps[0], 'globex', 'Globex');
  });

  afterAll(async () => {
    for (const app of apps) await app.close();
    apps = [];
    replicas = [];
    await db?.drop();
  });

  describe('the person’s own app passwords (PlatformSession)', () => {
    it('shows the password once, with the username and the CalDAV address, and never again', async () => {
      const res = await create('alice', 'iPhone');
      expect(res.status).toBe(201);
      expect(res.headers.get('cache-control')).toBe('no-store');
      const v = res.body.value;
      expect(v).toEqual({
        id: expect.stringMatching(/^[0-9a-f-]{36}$/),
        label: 'iPhone',
        username: expect.stringMatching(/^dav-[0-9a-f]{20}$/),
        password: expect.stringMatching(/^[A-Za-z0-9_-]{32}$/),
        caldav_url: 'https://platform.example.test/dav/',
        created_at: expect.any(String),
        last_used_at: null,
      });

      const listed = await listOf('alice');
      expect(listed.status).toBe(200);
      expect(listed.body.value.items).toEqual([
        { id: v.id, label: 'iPhone', username: v.username, created_at: v.created_at, last_used_at: null },
      ]);
      expect(JSON.stringify(listed.body)).not.toContain(v.password);
      expect(listed.headers.get('cache-control')).not.toBe('no-store');
    });

    it('stores only the SHA-256 of the password', async () => {
      const v = await created('alice', 'Thunderbird');
      const row = await withClient(
        db.url,
        async (c) => (await c.query(`SELECT * FROM calendar.app_passwords WHERE id = $1`, [v.id])).rows[0],
      );
      expect(row.secret_hash).toBe(createHash('sha256').update(v.password).digest('hex'));
      expect(JSON.stringify(row)).not.toContain(v.password);
      expect(row).toMatchObject({
        account_id: 'acme',
        subject: 'alice',
        login: v.username,
        revoked_at: null,
      });
    });

    it('gives each username once across accounts, and lists only the caller’s own', async () => {
      const mine = await created('bob', 'DAVx5');
      const theirs = await created('bob', 'DAVx5', 'globex');
      expect(theirs.username).not.toBe(mine.username);
      expect((await listOf('bob')).body.value.items.map((i) => i.id)).toEqual([mine.id]);
      expect((await listOf('bob', 'globex')).body.value.items.map((i) => i.id)).toEqual([theirs.id]);
      expect((await listOf('nobody')).body.value).toEqual({ items: [], total: 0 });
    });

    it('refuses a blank, missing or too long label as a field error', async () => {
      for (const label of ['', '   ', 'x'.repeat(65), undefined]) {
        const res = await create('alice', label as string);
        expect(res.status).toBe(400);
        expect((res.body.value as unknown as Failure).reason).toBe('VALIDATION_FAILED');
      }
    });

    it(`holds at most ${CAP} active ones per person, also when created at once; revoking frees a place`, async () => {
      const answers = await Promise.all(
        Array.from({ length: CAP + 3 }, (_, i) => create('carol', `device ${i}`)),
      );
      expect(answers.filter((a) => a.status === 201)).toHaveLength(CAP);
      const full = answers.filter((a) => a.status !== 201);
      expect(full.map((a) => [a.status, (a.body.value as unknown as Failure).reason])).toEqual(
        full.map(() => [409, 'CALENDAR_APP_PASSWORD_LIMIT_REACHED']),
      );
      expect(full[0].body.error).toContain(String(CAP));
      // Another person of the account is not held by carol's bound.
      expect((await create('dan', 'iPad')).status).toBe(201);
      const [first] = answers.filter((a) => a.status === 201).map((a) => a.body.value);
      expect((await revoke('carol', first.id)).status).toBe(200);
      expect((await create('carol', 'replacement')).status).toBe(201);
    });

    it('is not reachable with a product key or with an app password', async () => {
      await ensureProduct(apps[0], 'crm', 'CRM');
      const key = (await issueProductKey(apps[0], 'crm', 'test')).token;
      const byKey = await rawRequest(`${replicas[0]}/Calendar/app-passwords`, {
        headers: { API_KEY: key, ProductId: 'crm', AccountId: 'acme' },
        body: JSON.stringify({ label: 'x' }),
      });
      refused(byKey, 401, 'UNAUTHENTICATED');
      const v = await created('erin');
      const byPassword = await rawRequest(`${replicas[0]}/Calendar/app-passwords`, {
        headers: { Authorization: basic(v.username, v.password) },
      });
      refused(byPassword, 401, 'UNAUTHENTICATED');
    });
  });

  describe('revoking', () => {
    it('signs the client out on its next request, on every replica; the id is gone from the list', async () => {
      const v = await created('frank', 'Evolution');
      expect((await login(v.username, v.password, newAddress(), 0)).status).toBe(200);
      const res = await revoke('frank', v.id);
      expect(res.status).toBe(200);
      expect(res.body.value).toEqual(
        expect.objectContaining({ id: v.id, username: v.username, revoked_at: expect.any(String) }),
      );
      refused(await login(v.username, v.password, newAddress(), 0), 401, 'CALENDAR_DAV_CREDENTIALS_INVALID');
      refused(await login(v.username, v.password, newAddress(), 1), 401, 'CALENDAR_DAV_CREDENTIALS_INVALID');
      expect((await listOf('frank')).body.value.items).toEqual([]);
      // Revoked stays revoked: a second revoke finds nothing active.
      const again = await revoke('frank', v.id);
      expect([again.status, (again.body.value as unknown as Failure).reason]).toEqual([
        404,
        'CALENDAR_APP_PASSWORD_NOT_FOUND',
      ]);
    });

    it("answers 404 for another person's, another account's, an unknown or a malformed id, and revokes nothing", async () => {
      const v = await created('gina', 'iPhone');
      const probes = [
        await revoke('harry', v.id),
        await revoke('gina', v.id, 'globex'),
        await revoke('gina', '00000000-0000-4000-8000-000000000000'),
        await revoke('gina', 'not-a-uuid'),
        await revoke('gina', "1' OR '1'='1"),
      ];
      expect(probes.map((p) => [p.status, (p.body.value as unknown as Failure).reason])).toEqual(
        probes.map(() => [404, 'CALENDAR_APP_PASSWORD_NOT_FOUND']),
      );
      expect((await login(v.username, v.password)).status).toBe(200);
      expect((await listOf('gina')).body.value.items.map((i) => i.id)).toEqual([v.id]);
    });
  });

  describe('the dav scheme', () => {
    it('lets a person in by app password: never as the owner, whatever their session’s roles', async () => {
      const res = await create('olga', 'iPhone', 'acme', ['owner']);
      const v = res.body.value;
      const ok = await login(v.username, v.password);
      expect(ok.status).toBe(200);
      expect(ok.json?.value).toEqual({
        kind: 'person',
        subject: 'olga',
        accountId: 'acme',
        isOwner: false,
        scopes: ['Read', 'FreeBusy', 'ViewTeams', 'EditOwnEvents'],
        via: 'app-password',
      });
      // The username is matched in any case (a client may capitalise it).
      expect((await login(v.username.toUpperCase(), v.password)).status).toBe(200);
    });

    it('lets a person in by session, as Authorization: Bearer or as PlatformSession', async () => {
      const token = await session('olga', ['owner']);
      const ways: Record<string, string>[] = [
        { Authorization: `Bearer ${token}` },
        { PlatformSession: token },
      ];
      for (const headers of ways) {
        const res = await probe(headers);
        expect(res.status).toBe(200);
        expect(res.json?.value).toEqual({
          kind: 'person',
          subject: 'olga',
          accountId: 'acme',
          isOwner: true,
          scopes: ['Read', 'FreeBusy', 'ViewTeams', 'EditOwnEvents', 'Share', 'ManageAccess'],
          via: 'session',
        });
      }
      refused(await probe({ Authorization: 'Bearer not.a.jwt' }), 401, 'SESSION_INVALID');
    });

    it('answers 401 with a code, never a 500, to no, malformed or foreign credentials', async () => {
      refused(await probe({}), 401, 'UNAUTHENTICATED');
      refused(await probe({ Authorization: 'Digest username="u"' }), 401, 'UNAUTHENTICATED');
      refused(await probe({ API_KEY: 'cal_x', ProductId: 'crm', AccountId: 'acme' }), 401, 'UNAUTHENTICATED');
      const malformed = [
        'Basic',
        'Basic !!!!',
        `Basic ${Buffer.from('no-colon').toString('base64')}`,
        `Basic ${Buffer.from('user\u0000:pw').toString('base64')}`,
        `Basic ${Buffer.from([0x75, 0x3a, 0xff, 0xfe]).toString('base64')}`,
        `Basic ${Buffer.from(`u:${'p'.repeat(300)}`).toString('base64')}`,
        `Basic ${'QUFB'.repeat(3000)}`,
      ];
      for (const header of malformed)
        refused(await probe({ Authorization: header }), 401, 'CALENDAR_DAV_CREDENTIALS_INVALID');
      const v = await created('ivan');
      refused(await login(v.username, `${v.password}x`), 401, 'CALENDAR_DAV_CREDENTIALS_INVALID');
      refused(await login('dav-00000000000000000000', v.password), 401, 'CALENDAR_DAV_CREDENTIALS_INVALID');
      const unknown = await login('dav-00000000000000000000', v.password);
      expect(unknown.json?.error).toBe((await login(v.username, 'wrong')).json?.error);
    });

    it('marks last use at most once a minute', async () => {
      const v = await created('judy');
      expect(await lastUsed(v.id)).toBeNull();
      expect((await login(v.username, v.password)).status).toBe(200);
      const first = await lastUsed(v.id);
      expect(first).toBeInstanceOf(Date);
      const recent = await withClient(
        db.url,
        async (c) =>
          (
            await c.query<{ at: Date }>(
              `UPDATE calendar.app_passwords SET last_used_at = now() - interval '30 seconds' WHERE id = $1 RETURNING last_used_at AS at`,
              [v.id],
            )
          ).rows[0].at,
      );
      expect((await login(v.username, v.password, newAddress(), 1)).status).toBe(200);
      expect(await lastUsed(v.id)).toEqual(recent);
      await withClient(db.url, (c) =>
        c.query(
          `UPDATE calendar.app_passwords SET last_used_at = now() - interval '2 minutes' WHERE id = $1`,
          [v.id],
        ),
      );
      expect((await login(v.username, v.password, newAddress(), 1)).status).toBe(200);
      const touched = await lastUsed(v.id);
      expect(touched?.getTime()).toBeGreaterThan(recent.getTime());
      const listed = (await listOf('judy')).body.value.items[0];
      expect(listed.last_used_at).toBe(touched?.toISOString());
    });
  });

  describe('brute force', () => {
    it(`refuses the ${PER_USERNAME + 1}th failure of a username with 429, and then the right password too, counted across replicas`, async () => {
      const v = await created('kate');
      const other = await created('kate', 'second device');
      for (let i = 0; i < PER_USERNAME; i++) {
        // Alternating replicas and addresses: only the shared per-username count can reach the limit.
        refused(
          await login(v.username, `guess-${i}`, newAddress(), i % 2),
          401,
          'CALENDAR_DAV_CREDENTIALS_INVALID',
        );
      }
      const limited = await login(v.username, 'guess-last', newAddress(), 0);
      refused(limited, 429, 'CALENDAR_DAV_AUTH_RATE_LIMITED');
      const retryAfter = Number(limited.headers['retry-after']);
      expect(retryAfter).toBeGreaterThanOrEqual(1);
      // Up to the window's end plus the time its failures, weighed as the previous window's, need to
      // weigh little enough for one more attempt: at most two windows.
      expect(retryAfter).toBeLessThanOrEqual(600);
      expect(limited.json?.error).toContain(String(retryAfter));
      for (const replica of [0, 1]) {
        const right = await login(v.username, v.password, newAddress(), replica);
        refused(right, 429, 'CALENDAR_DAV_AUTH_RATE_LIMITED');
        expect(right.headers['retry-after']).toBeDefined();
      }
      // Another app password of the same person has a username of its own.
      expect((await login(other.username, other.password)).status).toBe(200);
      // A session still gets in: the limit is on guessing passwords.
      expect((await probe({ PlatformSession: await session('kate') })).status).toBe(200);
    });

    it(`refuses an address after ${PER_IP} failures on any usernames (an IPv6 client by its /64), a right password too`, async () => {
      const v = await created('liam');
      const net = '2001:db8:77:1';
      for (let i = 0; i < PER_IP; i++) {
        // Never more than two per username, from addresses of one /64.
        const res = await login(`dav-guess-${Math.floor(i / 2)}`, 'wrong', `${net}::${i + 1}`, i % 2);
        refused(res, 401, 'CALENDAR_DAV_CREDENTIALS_INVALID');
      }
      refused(await login(v.username, v.password, `${net}::ffff`, 0), 429, 'CALENDAR_DAV_AUTH_RATE_LIMITED');
      refused(
        await login(v.username, v.password, `${net}:abcd::1`, 1),
        429,
        'CALENDAR_DAV_AUTH_RATE_LIMITED',
      );
      // Another /64, and another address: the username itself is not limited.
      expect((await login(v.username, v.password, '2001:db8:77:2::1')).status).toBe(200);
      expect((await login(v.username, v.password, newAddress())).status).toBe(200);
    });

    it('does not count successful logins', async () => {
      const v = await created('mia');
      const from = newAddress();
      for (let i = 0; i < PER_IP + PER_USERNAME; i++)
        expect((await login(v.username, v.password, from, i % 2)).status).toBe(200);
      refused(await login(v.username, 'wrong', from), 401, 'CALENDAR_DAV_CREDENTIALS_INVALID');
    });

    it('keeps its counters hashed: no username or address in the database', async () => {
      const buckets = await withClient(db.url, async (c) =>
        (await c.query<{ bucket: string }>(`SELECT bucket FROM calendar.rate_limit_windows`)).rows.map(
          (r) => r.bucket,
        ),
      );
      expect(buckets.length).toBeGreaterThan(0);
      for (const b of buckets) expect(b).toMatch(/^dav-login-(user|ip):[0-9a-f]{32}$/);
    });
  });

  it('answers the fuzz harness on the app-password routes and a dav route with no 5xx and a whole envelope', async () => {
    const v = await created('fuzz-person', 'fuzzed');
    const owner = await session('fuzz-person', ['owner']);
    const routes = [
      ...readRouteManifest('calendar').filter((r) => r.path.startsWith('/Calendar/app-passwords')),
      { method: 'GET', path: '/dav-probe', access: 'authenticated' as const, schemes: ['dav'], raw: false },
    ];
    expect(routes.map((r) => `${r.method} ${r.path}`)).toEqual([
      'GET /Calendar/app-passwords',
      'POST /Calendar/app-passwords',
      'DELETE /Calendar/app-passwords/:id',
      'GET /dav-probe',
    ]);
    const report = await runFuzz(
      [
        {
          app: 'calendar',
          routes,
          urlFor: (route) => `${replicas[0]}${route.path}`,
          credentials: (route): Record<string, string> =>
            route.schemes.includes('dav')
              ? { Authorization: basic(v.username, v.password) }
              : { PlatformSession: owner },
          readyUrl: `${replicas[0]}/health/live`,
        },
      ],
      [replicas[0]],
      { seed: 20261204, randomPerRoute: 30, concurrency: 8, timeoutMs: 15000 },
    );
    expect(report.requests).toBeGreaterThan(100);
    expect(report.failures).toEqual([]);
    expect(report.notReady).toEqual([]);
  }, 120_000);
});
