import { createTestDatabase, withClient } from '@platform/testing';
import { TenantConnections } from '../../src/tenancy/tenant-connections';
import { startLending, type LendingFixture } from './lending-fixture';
import { applicationBody, checked, insertCustomer, submitted, type AppView } from './applications-helpers';

type Page<T> = { items: T[]; total: number };

describe('applications: tenants and paging (real PostgreSQL, shared database)', () => {
  let s: LendingFixture;
  let a: Record<string, string>;
  let b: Record<string, string>;
  let alice: string;
  let bob: string;
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    s = await startLending('lending_app_tenancy');
    a = await s.organization('bank-ta');
    b = await s.organization('bank-tb');
    [alice, bob] = [await insertCustomer(s, 'bank-ta'), await insertCustomer(s, 'bank-ta')];
    // A's applications: 3 drafts and 2 submitted for Alice, an approved and one under review for Bob.
    for (let i = 0; i < 3; i++)
      ids[`draft${i}`] = (
        await s.call<AppView>(a, 'POST', '/Applications/CreateApplication', applicationBody(alice))
      ).body.value.id;
    ids.submitted0 = await submitted(s, a, alice);
    ids.submitted1 = await submitted(s, a, alice);
    ids.approved = (await checked(s, a, bob, '900101300500')).id;
    ids.review = (await checked(s, a, bob, '900101300512')).id;
    // B has one of its own.
    await s.call(
      b,
      'POST',
      '/Applications/CreateApplication',
      applicationBody(await insertCustomer(s, 'bank-tb')),
    );
  });

  afterAll(async () => {
    await s?.close();
  });

  const page = (headers: Record<string, string>, query: string) =>
    s.call<Page<AppView>>(headers, 'GET', `/Applications/GetApplications${query}`);

  it('filters by status and customer, pages with Offset and Count, and counts every match', async () => {
    expect((await page(a, '')).body.value.total).toBe(7);
    const drafts = await page(a, '?Status=draft&Offset=0&Count=2');
    expect([drafts.body.value.total, drafts.body.value.items.length]).toEqual([3, 2]);
    expect(drafts.body.value.items.every((i) => i.status === 'draft' && i.statusName === 'Draft')).toBe(true);
    const rest = await page(a, '?Status=draft&Offset=2&Count=2');
    expect([rest.body.value.total, rest.body.value.items.length]).toEqual([3, 1]);
    const seen = new Set([...drafts.body.value.items, ...rest.body.value.items].map((i) => i.id));
    expect(seen).toEqual(new Set([ids.draft0, ids.draft1, ids.draft2]));

    expect((await page(a, `?CustomerId=${alice}`)).body.value.total).toBe(5);
    expect((await page(a, `?CustomerId=${bob}`)).body.value.total).toBe(2);
    const both = await page(a, `?CustomerId=${alice}&Status=submitted`);
    expect(both.body.value.items.map((i) => i.id).sort()).toEqual([ids.submitted0, ids.submitted1].sort());
    const ru = await s.call<Page<AppView>>(
      a,
      'GET',
      `/Applications/GetApplications?Status=under_review`,
      undefined,
      'ru',
    );
    expect(ru.body.value.items.map((i) => [i.id, i.statusName])).toEqual([[ids.review, 'На рассмотрении']]);
    // Newest first.
    const all = (await page(a, '?Count=500')).body.value.items.map((i) => i.id);
    expect(all[0]).toBe(ids.review);
    expect(all.at(-1)).toBe(ids.draft0);

    const bad = await page(a, '?Status=hijacked&CustomerId=x&Count=0');
    expect([bad.status, bad.body.value.fields?.map((f) => f.field).sort()]).toEqual([
      400,
      ['Count', 'CustomerId', 'Status'],
    ]);
  });

  it("shows B only B's rows: A's customer filters to nothing, A's ids are unknown", async () => {
    expect((await page(b, '')).body.value.total).toBe(1);
    expect((await page(b, `?CustomerId=${alice}`)).body.value.total).toBe(0);
  });

  it("answers B's key on A's application ids with 404 on every route, and leaves A's rows as they were", async () => {
    const snapshot = () =>
      withClient(s.db.url, async (c) => {
        const q = async (sql: string) => (await c.query(sql, ['bank-ta'])).rows;
        return {
          applications: await q(
            'SELECT id, status, amount, channel, updated_at FROM lending.applications WHERE organization_id = $1 ORDER BY id',
          ),
          history: await q(
            'SELECT count(*)::int AS n FROM lending.application_status_history WHERE organization_id = $1',
          ),
          checks: await q(
            'SELECT application_id, step, status, attempts FROM lending.application_checks WHERE organization_id = $1 ORDER BY 1, 2',
          ),
          decisions: await q(
            'SELECT count(*)::int AS n FROM lending.application_decisions WHERE organization_id = $1',
          ),
          calls: await q('SELECT count(*)::int AS n FROM lending.external_calls WHERE organization_id = $1'),
        };
      });
    const before = await snapshot();
    const probes: [string, string, unknown][] = [];
    for (const id of Object.values(ids)) {
      probes.push(
        ['GET', `/Applications/GetApplication?ApplicationId=${id}`, undefined],
        ['GET', `/Applications/GetApplicationHistory?ApplicationId=${id}`, undefined],
        ['GET', `/Applications/GetDecisions?ApplicationId=${id}`, undefined],
        ['GET', `/Applications/GetExternalCalls?ApplicationId=${id}`, undefined],
        ['POST', '/Applications/UpdateApplication', { applicationId: id, channel: 'branch' }],
        ['POST', '/Applications/RunChecks', { applicationId: id }],
        ['POST', '/Applications/RunCheck', { applicationId: id, step: 'identity_verification' }],
        ['POST', '/Applications/MakeDecision', { applicationId: id, outcome: 'decline', reasons: ['OTHER'] }],
      );
      for (const action of [
        'SubmitApplication',
        'CancelApplication',
        'WithdrawApplication',
        'AcceptOffer',
        'RejectOffer',
        'ExpireApplication',
      ])
        probes.push(['POST', `/Applications/${action}`, { applicationId: id }]);
    }
    for (const [method, path, body] of probes) {
      const res = await s.call(b, method, path, body);
      expect([method, path, res.status, res.body.value.reason]).toEqual([
        method,
        path,
        404,
        'APPLICATION_NOT_FOUND',
      ]);
    }
    const foreign = await s.call(b, 'POST', '/Applications/CreateApplication', applicationBody(alice));
    expect([foreign.status, foreign.body.value.reason]).toEqual([404, 'APPLICATION_CUSTOMER_NOT_FOUND']);
    const moved = await s.call(b, 'POST', '/Applications/UpdateApplication', {
      applicationId: (await page(b, '')).body.value.items[0].id,
      customerId: bob,
    });
    expect([moved.status, moved.body.value.reason]).toEqual([404, 'APPLICATION_CUSTOMER_NOT_FOUND']);
    expect(await snapshot()).toEqual(before);
    // A still reads its own.
    expect((await s.call(a, 'GET', `/Applications/GetApplication?ApplicationId=${ids.review}`)).status).toBe(
      200,
    );
  });

  it('needs applications:write to change anything and applications:read to read', async () => {
    const reader = await s.organization('bank-tc', ['applications:read']);
    const write = await s.call(reader, 'POST', '/Applications/CreateApplication', applicationBody(alice));
    expect([write.status, write.body.value.reason]).toEqual([403, 'SCOPE_MISSING']);
    expect((await s.call(reader, 'GET', '/Applications/GetApplicationStatuses')).status).toBe(200);
  });
});

describe('applications: a database per tenant (real PostgreSQL)', () => {
  let s: LendingFixture;
  let tenantDb: Awaited<ReturnType<typeof createTestDatabase>>;

  beforeAll(async () => {
    tenantDb = await createTestDatabase('lending_app_tenant_db');
    s = await startLending('lending_app_control', {
      LENDING_TENANCY_MODE: 'database-per-tenant',
      LENDING_TENANT_DB_KEY: 'test-tenant-registry-key-0123456789',
      API_KEY_CACHE_TTL_MS: '0',
    });
  });

  afterAll(async () => {
    await s?.close();
    await tenantDb?.drop();
  });

  it("runs the workflow in the organization's own database, with its log and history there", async () => {
    const bank = await s.organization('bank-td');
    await s.app.get(TenantConnections).register('bank-td', tenantDb.url);
    const customer = await withClient(
      tenantDb.url,
      async (c) =>
        (
          await c.query<{ id: string }>(
            `INSERT INTO lending.customers (organization_id, kind) VALUES ('bank-td', 'individual') RETURNING id`,
          )
        ).rows[0].id,
    );
    const app = await checked(s, bank, customer, '900101300500');
    expect(app.status).toBe('approved');
    const counts = await withClient(tenantDb.url, async (c) => ({
      history: (await c.query('SELECT count(*)::int AS n FROM lending.application_status_history')).rows[0].n,
      calls: (await c.query('SELECT count(*)::int AS n FROM lending.external_calls')).rows[0].n,
    }));
    expect(counts).toEqual({ history: 4, calls: 4 });
    const control = await withClient(
      s.db.url,
      async (c) => (await c.query('SELECT count(*)::int AS n FROM lending.applications')).rows[0].n,
    );
    expect(control).toBe(0);
  });
});
