import type { INestApplication } from '@nestjs/common';
import { SignJWT, exportSPKI, generateKeyPair, type CryptoKey } from 'jose';
import { createTestDatabase, listen, request, serviceEnv, withClient } from '@platform/testing';
import { createCalendarApp } from '../../src/bootstrap';
import { ensureAccount, ensureProduct, grantPermissions, issueProductKey } from './calendar-admin';

type Env<T = Record<string, unknown>> = { success: boolean; code: number; error: string | null; value: T };
type Item = Record<string, unknown> & { title?: string; entity_id?: string; free_busy?: string };
type Page = { items: Item[]; total: number };

describe('calendar grants, sessions and the events query (real PostgreSQL)', () => {
  let app: INestApplication;
  let base: string;
  let db: Awaited<ReturnType<typeof createTestDatabase>>;
  let signer: CryptoKey;
  let crm: string;
  let hr: string;
  let spy: string;

  const session = (sub: string, roles: string[] = [], account = 'acme') =>
    new SignJWT({ account_id: account, roles })
      .setProtectedHeader({ alg: 'RS256' })
      .setSubject(sub)
      .setIssuer('https://id.test')
      .setAudience('calendar')
      .setExpirationTime('10m')
      .sign(signer);
  const product = (key: string, id: string) => ({ API_KEY: key, AccountId: 'acme', ProductId: id });
  const get = (path: string, headers: Record<string, string>) =>
    request<Env<Page & { reason?: string }>>(`${base}${path}`, { headers });
  const post = (path: string, headers: Record<string, string>, body: unknown) =>
    request<Env<Page & { reason?: string; removed?: boolean }>>(`${base}${path}`, { headers, body });

  beforeAll(async () => {
    const pair = await generateKeyPair('RS256');
    signer = pair.privateKey;
    db = await createTestDatabase('calendar_access');
    app = await createCalendarApp(
      serviceEnv(db.url, {
        SESSION_PUBLIC_KEY_PEM: await exportSPKI(pair.publicKey),
        SESSION_ISSUER: 'https://id.test',
      }),
      false,
    );
    base = await listen(app);
    await ensureAccount(app, 'acme', 'Acme');
    for (const p of ['crm', 'hr', 'spy']) await ensureProduct(app, p, p);
    crm = (await issueProductKey(app, 'crm', 't')).token;
    hr = (await issueProductKey(app, 'hr', 't')).token;
    spy = (await issueProductKey(app, 'spy', 't')).token;
    await grantPermissions(app, 'acme', 'crm', ['Push', 'Read']);
    await grantPermissions(app, 'acme', 'hr', ['Push']);
    const put = (key: string, id: string, body: Record<string, unknown>) =>
      post('/Calendar/upsert', product(key, id), body);
    await put(crm, 'crm', {
      entity_type: 'meeting',
      entity_id: 'M-1',
      title: 'Pipeline review',
      description: 'quarterly numbers',
      start: { date_time: '2026-12-01T09:00:00Z' },
      end: { date_time: '2026-12-01T10:00:00Z' },
      owner: 'alice',
      assignees: ['bob'],
      resources: [{ type: 'room', id: 'r-1' }],
    });
    await put(crm, 'crm', {
      entity_type: 'meeting',
      entity_id: 'M-2',
      title: 'Offsite',
      status: 'tentative',
      start: { date_time: '2026-12-03T09:00:00Z' },
      end: { date_time: '2026-12-03T17:00:00Z' },
      owner: 'carol',
    });
    await put(hr, 'hr', {
      entity_type: 'leave',
      entity_id: 'LV-1',
      title: 'Medical leave',
      visibility: 'private',
      start: { date: '2026-12-02' },
      owner: 'bob',
    });
    await put(crm, 'crm', {
      entity_type: 'meeting',
      entity_id: 'M-3',
      title: 'Cancelled sync',
      status: 'cancelled',
      start: { date_time: '2026-12-04T09:00:00Z' },
      owner: 'alice',
    });
  });

  afterAll(async () => {
    await app?.close();
    await db?.drop();
  });

  it('gives an integration nothing before the owner grants it, and takes it away on revoke', async () => {
    const denied = await post(
      '/Calendar/upsert',
      { ...product(spy, 'spy'), 'Language-Code': 'ru' },
      { entity_type: 'x', entity_id: '1' },
    );
    expect(denied.status).toBe(403);
    expect(denied.body.value).toMatchObject({ reason: 'CALENDAR_GRANT_MISSING', required: ['Push'] });
    expect(denied.body.error).toBe('Владелец аккаунта не выдал этой интеграции разрешение Push.');
    expect((await get('/Calendar/events', product(spy, 'spy'))).body.value.reason).toBe(
      'CALENDAR_GRANT_MISSING',
    );

    const owner = { PlatformSession: await session('olga', ['owner']) };
    const granted = await post('/Calendar/grant', owner, {
      product_id: 'spy',
      permissions: ['Push', 'FreeBusy'],
    });
    expect(granted.status).toBe(200);
    expect(granted.body.value.items.map((g) => g.permission)).toEqual(['FreeBusy', 'Push']);
    expect(
      (await post('/Calendar/upsert', product(spy, 'spy'), { entity_type: 'x', entity_id: '1' })).status,
    ).toBe(201);

    await post('/Calendar/revokeGrant', owner, { product_id: 'spy', permissions: ['Push'] });
    const after = await post('/Calendar/upsert', product(spy, 'spy'), { entity_type: 'x', entity_id: '2' });
    expect([after.status, after.body.value.reason]).toEqual([403, 'CALENDAR_GRANT_MISSING']);
    const own = await get('/Calendar/grants', product(spy, 'spy'));
    expect(own.body.value.items.map((g) => g.permission)).toEqual(['FreeBusy']);
  });

  it('lets only the account owner manage grants', async () => {
    const member = { PlatformSession: await session('bob') };
    const res = await post('/Calendar/grant', member, { product_id: 'spy', permissions: ['Read'] });
    expect([res.status, res.body.value.reason]).toEqual([403, 'CALENDAR_OWNER_ONLY']);
    const stranger = { PlatformSession: await session('eve', ['owner'], 'other-co') };
    const list = await get('/Calendar/grants', stranger);
    expect(list.body.value.total).toBe(0);
    const forged = await get('/Calendar/grants', {
      PlatformSession: `${(await session('olga', ['owner'])).slice(0, -4)}AAAA`,
    });
    expect([forged.status, forged.body.value.reason]).toEqual([401, 'SESSION_INVALID']);
  });

  it('gives a FreeBusy-only integration busy blocks without any detail from events and listByEntity', async () => {
    await grantPermissions(app, 'acme', 'spy', ['FreeBusy']);
    // Granting again keeps who granted first.
    const own = await get('/Calendar/grants', product(spy, 'spy'));
    expect(own.body.value.items).toEqual([
      expect.objectContaining({ permission: 'FreeBusy', granted_by: 'olga' }),
    ]);
    const res = await get(
      '/Calendar/events?from=2026-12-01T00:00:00Z&to=2026-12-08T00:00:00Z',
      product(spy, 'spy'),
    );
    expect(res.status).toBe(200);
    expect(res.body.value.total).toBe(3);
    for (const item of res.body.value.items) {
      expect(Object.keys(item).sort()).toEqual(['all_day', 'end', 'free_busy', 'start']);
    }
    expect(res.body.value.items.map((i) => i.free_busy)).toEqual(['busy', 'busy', 'tentative']);
    // Another product's entity ids are hidden fields: probing them needs Read.
    const foreign = await get('/Calendar/listByEntity?product_id=crm&entity_id=M-1', product(spy, 'spy'));
    expect([foreign.status, foreign.body.value.reason]).toEqual([403, 'CALENDAR_FILTER_NEEDS_READ']);
    // Its own entity (written while it held Push) comes back as a busy block.
    const byEntity = await get('/Calendar/listByEntity?entity_type=x&entity_id=1', product(spy, 'spy'));
    expect(byEntity.body.value.items).toEqual([
      { start: null, end: null, all_day: false, free_busy: 'busy' },
    ]);
  });

  it('filters by range (overlap), person, resource, product, status and text, with sort, paging and total', async () => {
    const h = product(crm, 'crm');
    const titles = async (query: string) =>
      (await get(`/Calendar/events?${query}`, h)).body.value.items.map((i) => i.title);
    expect(await titles('from=2026-12-01T09:30:00Z&to=2026-12-01T09:45:00Z')).toEqual(['Pipeline review']);
    expect(await titles('from=2026-12-01T10:00:00Z&to=2026-12-02T00:00:00Z')).toEqual([]);
    expect(await titles('person=bob')).toEqual(['Pipeline review', 'Medical leave']);
    expect(await titles('resource=room:r-1')).toEqual(['Pipeline review']);
    expect(await titles('product=hr')).toEqual(['Medical leave']);
    expect(await titles('status=tentative,cancelled&sort=-start')).toEqual(['Cancelled sync', 'Offsite']);
    expect(await titles('text=QUARTERLY')).toEqual(['Pipeline review']);
    const page = await get('/Calendar/events?product=crm,hr&limit=2&offset=1', h);
    expect(page.body.value.total).toBe(4);
    expect(page.body.value.items.map((i) => i.title)).toEqual(['Medical leave', 'Offsite']);
    const bad = await get('/Calendar/events?from=2026-12-02T00:00:00Z&to=2026-12-01T00:00:00Z', {
      ...h,
      'Language-Code': 'uz',
    });
    expect([bad.status, bad.body.value.reason]).toEqual([400, 'CALENDAR_INVALID_RANGE']);
    const invalid = await get('/Calendar/events?limit=1000&status=maybe', h);
    expect(invalid.status).toBe(400);
  });

  it('lets an integration with Share manage shared access (teams), and only then', async () => {
    const body = { team_id: 'support', members: ['dave'] };
    const denied = await post('/Calendar/setTeamMembers', product(crm, 'crm'), body);
    expect([denied.status, denied.body.value.reason]).toEqual([403, 'CALENDAR_GRANT_MISSING']);
    await grantPermissions(app, 'acme', 'hr', ['Share']);
    const set = await post('/Calendar/setTeamMembers', product(hr, 'hr'), body);
    expect(set.status).toBe(200);
    const teams = await get('/Calendar/teams', product(hr, 'hr'));
    expect(teams.body.value.items).toEqual(
      expect.arrayContaining([{ team_id: 'support', members: ['dave'] }]),
    );
  });

  it("shows a person their own events and their team's, with teammates' private events as busy blocks", async () => {
    const owner = { PlatformSession: await session('olga', ['owner']) };
    await post('/Calendar/setTeamMembers', owner, { team_id: 'sales', members: ['alice', 'bob'] });
    const alice = { PlatformSession: await session('alice') };
    const mine = await get('/Calendar/events?person=alice', alice);
    expect(mine.body.value.items.map((i) => i.title)).toEqual(['Pipeline review', 'Cancelled sync']);
    const team = await get('/Calendar/events?team=sales', alice);
    expect(team.body.value.total).toBe(3);
    const leave = team.body.value.items.find((i) => i.free_busy);
    expect(leave).toEqual({
      start: { date: '2026-12-02' },
      end: { date: '2026-12-03' },
      all_day: true,
      free_busy: 'busy',
    });
    const bob = { PlatformSession: await session('bob') };
    const own = await get('/Calendar/events?person=bob', bob);
    expect(own.body.value.items.map((i) => i.title)).toEqual(['Pipeline review', 'Medical leave']);
    const outsider = { PlatformSession: await session('carol') };
    const seen = await get('/Calendar/events?person=alice', outsider);
    expect(seen.body.value.total).toBe(0);
  });

  it('ends a grant revoked elsewhere (another replica, the admin CLI) within API_KEY_CACHE_TTL_MS', async () => {
    const first = await post('/Calendar/upsert', product(hr, 'hr'), { entity_type: 'x', entity_id: 'G-1' });
    expect(first.status).toBe(201); // Push, now cached for this replica
    // Another replica's revoke: the row goes, this process is not told.
    await withClient(db.url, (c) =>
      c.query(`DELETE FROM calendar.integration_grants WHERE product_id = 'hr' AND permission = 'Push'`),
    );
    const revokedAt = Date.now();
    let status = 201;
    for (let i = 0; status !== 403 && Date.now() - revokedAt < 6000; i++) {
      const res = await post('/Calendar/upsert', product(hr, 'hr'), {
        entity_type: 'x',
        entity_id: `G-${i + 2}`,
      });
      status = res.status;
      if (status !== 403) await new Promise((r) => setTimeout(r, 100));
    }
    expect(status).toBe(403);
    // The bound: API_KEY_CACHE_TTL_MS (2 s by default) plus one probe's slack.
    expect(Date.now() - revokedAt).toBeLessThan(2000 + 1000);
  });
});
