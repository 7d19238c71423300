import type { INestApplication } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { TenantLease } from '@platform/persistence';
import { createTestDatabase, listen, request, serviceEnv, withClient } from '@platform/testing';
import { TenancyAdminService, asOrganizationId } from '@platform/tenancy';
import { createLendingApp } from '../../src/bootstrap';
import { TenantConnections } from '../../src/tenancy/tenant-connections';
import { TenantData } from '../../src/tenancy/tenant-data';
import { TenantDatabasesRepository } from '../../src/tenancy/tenant-databases.unscoped.repository';
import { TenantDbCrypto } from '../../src/tenancy/tenant-db-crypto';

type Env<T = unknown> = {
  success: boolean;
  code: number;
  error: string | null;
  value: T & { reason?: string };
};
type Page = { items: { id: string }[]; total: number };

const A = asOrganizationId('bank-a');
const B = asOrganizationId('bank-b');

/** Tables of the lending schema that carry `organization_id` but are not tenant data. */
const NOT_TENANT_DATA = new Map([['tenant_databases', 'the registry itself: read before a tenant is known']]);

describe('lending tenancy: shared database with row-level security (real PostgreSQL)', () => {
  let app: INestApplication;
  let db: Awaited<ReturnType<typeof createTestDatabase>>;

  beforeAll(async () => {
    db = await createTestDatabase('lending_rls');
    app = await createLendingApp(serviceEnv(db.url), false);
    const admin = app.get(TenancyAdminService);
    await admin.createOwner(A, 'Bank A');
    await admin.createOwner(B, 'Bank B');
    // Written as the connecting superuser, outside any tenant transaction.
    await withClient(db.url, async (c) => {
      for (const [org, n] of [
        [A, 3],
        [B, 2],
      ] as const)
        for (let i = 0; i < n; i++)
          await c.query(`INSERT INTO lending.applications (organization_id, status) VALUES ($1, 'draft')`, [
            org,
          ]);
    });
  });

  afterAll(async () => {
    await app?.close();
    await db?.drop();
  });

  const data = () => app.get(TenantData);

  it("shows a query without any organization condition only the transaction's organization", async () => {
    const count = (org: typeof A) =>
      data().run(org, async (tx) => {
        const m = tx as unknown as DataSource['manager'];
        const [row] = (await m.query('SELECT count(*)::int AS n, current_user AS who FROM applications')) as {
          n: number;
          who: string;
        }[];
        return row;
      });
    expect(await count(A)).toEqual({ n: 3, who: 'lending_tenant' });
    expect(await count(B)).toEqual({ n: 2, who: 'lending_tenant' });
    expect(await count(asOrganizationId('nobody'))).toMatchObject({ n: 0 });
  });

  it("refuses to write another organization's row, and leaves nothing half-written", async () => {
    const write = data().run(A, async (tx) => {
      const m = tx as unknown as DataSource['manager'];
      await m.query(`INSERT INTO applications (organization_id, status) VALUES ($1, 'draft')`, [A]);
      await m.query(`INSERT INTO applications (organization_id, status) VALUES ($1, 'draft')`, [B]);
    });
    await expect(write).rejects.toThrow(/row-level security/);
    const rows = await withClient(
      db.url,
      async (c) =>
        (
          await c.query(
            'SELECT organization_id, count(*)::int AS n FROM lending.applications GROUP BY 1 ORDER BY 1',
          )
        ).rows,
    );
    expect(rows).toEqual([
      { organization_id: 'bank-a', n: 3 },
      { organization_id: 'bank-b', n: 2 },
    ]);
  });

  it('cannot update or delete across organizations either', async () => {
    const changed = await data().run(A, async (tx) => {
      const m = tx as unknown as DataSource['manager'];
      const [, updated] = (await m.query(
        `UPDATE applications SET status = 'hijacked' WHERE organization_id = $1`,
        [B],
      )) as [unknown, number];
      const [, deleted] = (await m.query(`DELETE FROM applications WHERE organization_id = $1`, [B])) as [
        unknown,
        number,
      ];
      return { updated, deleted };
    });
    expect(changed).toEqual({ updated: 0, deleted: 0 });
  });

  it('returns pooled connections to the connecting role and no organization afterwards', async () => {
    await data().run(A, async () => undefined);
    const ds = app.get(DataSource);
    const rows = (await ds.query(
      `SELECT current_user AS who, coalesce(current_setting('lending.organization_id', true), '') AS org`,
    )) as { who: string; org: string }[];
    expect(rows[0].who).not.toBe('lending_tenant');
    expect(rows[0].org).toBe('');
  });

  it('protects every table that carries organization_id with a forced policy', async () => {
    const tables = await withClient(
      db.url,
      async (c) =>
        (
          await c.query(`
          SELECT t.relname AS table, t.relrowsecurity AS rls, t.relforcerowsecurity AS forced,
                 exists(SELECT 1 FROM pg_policy p WHERE p.polrelid = t.oid AND p.polname = 'tenant_isolation') AS policy
            FROM pg_class t JOIN pg_namespace n ON n.oid = t.relnamespace
           WHERE n.nspname = 'lending' AND t.relkind = 'r'
             AND exists(SELECT 1 FROM pg_attribute a WHERE a.attrelid = t.oid AND a.attname = 'organization_id')
           ORDER BY 1`)
        ).rows as { table: string; rls: boolean; forced: boolean; policy: boolean }[],
    );
    expect(tables.map((t) => t.table)).toContain('applications');
    const unprotected = tables.filter(
      (t) => !NOT_TENANT_DATA.has(t.table) && !(t.rls && t.forced && t.policy),
    );
    expect(unprotected).toEqual([]);
  });
});

describe('lending tenancy: a database per tenant (real PostgreSQL)', () => {
  const KEY = 'test-tenant-registry-key-0123456789';
  let control: Awaited<ReturnType<typeof createTestDatabase>>;
  let dbA: Awaited<ReturnType<typeof createTestDatabase>>;
  let dbB: Awaited<ReturnType<typeof createTestDatabase>>;
  let dbC: Awaited<ReturnType<typeof createTestDatabase>>;
  let app: INestApplication;
  let base: string;
  const keys: Record<string, string> = {};
  const env = () =>
    serviceEnv(control.url, {
      LENDING_TENANCY_MODE: 'database-per-tenant',
      LENDING_TENANT_DB_KEY: KEY,
      LENDING_TENANT_POOLS_MAX: '1',
      LENDING_TENANT_POOL_IDLE_MS: '1000',
      API_KEY_CACHE_TTL_MS: '0',
      // The bound of one pool is the requests' here: the periodic jobs that visit every tenant database
      // (accruals, the day close) would take it at a random moment of their jittered first round.
      LENDING_ACCRUALS_INTERVAL_MS: '0',
      LENDING_ACCOUNTING_CLOSE_INTERVAL_MS: '0',
    });
  const list = (org: string, lang = 'en') =>
    request<Env<Page>>(`${base}/Applications/GetApplications?Offset=0&Count=10`, {
      headers: { 'X-Api-Key': keys[org], 'Organization-Id': org, 'Language-Code': lang },
    });

  beforeAll(async () => {
    [control, dbA, dbB, dbC] = await Promise.all(
      ['lending_control', 'lending_tenant_a', 'lending_tenant_b', 'lending_tenant_c'].map((l) =>
        createTestDatabase(l),
      ),
    );
    app = await createLendingApp(env(), false);
    base = await listen(app);
    const admin = app.get(TenancyAdminService);
    for (const org of ['bank-a', 'bank-b', 'bank-c', 'bank-d']) {
      await admin.createOwner(org, org.toUpperCase());
      keys[org] = (await admin.issueKey(org, 'k')).token;
    }
    const connections = app.get(TenantConnections);
    await connections.register('bank-a', dbA.url);
    await connections.register('bank-b', dbB.url);
    await withClient(dbA.url, (c) =>
      c.query(
        `INSERT INTO lending.applications (organization_id, status) VALUES ('bank-a', 'draft'), ('bank-a', 'draft')`,
      ),
    );
    await withClient(dbB.url, (c) =>
      c.query(`INSERT INTO lending.applications (organization_id, status) VALUES ('bank-b', 'draft')`),
    );
  });

  afterAll(async () => {
    await app?.close();
    await Promise.all([control, dbA, dbB, dbC].map((d) => d?.drop()));
  });

  it('answers each organization from its own database, and stores only a sealed URL', async () => {
    const a = await list('bank-a');
    const b = await list('bank-b');
    expect([a.status, a.body.value.total, b.status, b.body.value.total]).toEqual([200, 2, 200, 1]);
    // The control database holds no tenant data, and the registry no readable URL.
    const control_ = await withClient(control.url, async (c) => ({
      apps: (await c.query('SELECT count(*)::int AS n FROM lending.applications')).rows[0].n as number,
      registry: (
        await c.query('SELECT organization_id, url_ciphertext FROM lending.tenant_databases ORDER BY 1')
      ).rows as { organization_id: string; url_ciphertext: string }[],
    }));
    expect(control_.apps).toBe(0);
    expect(control_.registry.map((r) => r.organization_id)).toEqual(['bank-a', 'bank-b']);
    for (const r of control_.registry) {
      expect(r.url_ciphertext).not.toContain('postgres');
      expect(new TenantDbCrypto(KEY).open(r.url_ciphertext)).toBe(
        r.organization_id === 'bank-a' ? dbA.url : dbB.url,
      );
    }
    expect(() => new TenantDbCrypto(`${KEY}-other`).open(control_.registry[0].url_ciphertext)).toThrow();
  });

  it('keeps at most LENDING_TENANT_POOLS_MAX pools open, and closes idle ones', async () => {
    const connections = app.get(TenantConnections);
    await list('bank-a');
    expect(connections.openPools).toEqual(['bank-a']);
    await list('bank-b'); // the bound is 1: bank-a's idle pool closes to make room
    expect(connections.openPools).toEqual(['bank-b']);
    // Idle for LENDING_TENANT_POOL_IDLE_MS (1 s): the app's sweeper (every 0.5 s) closes it.
    const deadline = Date.now() + 5000;
    while (connections.openPools.length && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 100));
    expect(connections.openPools).toEqual([]);
    expect((await list('bank-a')).body.value.total).toBe(2); // reopened lazily
  });

  it('refuses a busy bound with a retryable, localised 503, never a wrong database', async () => {
    const connections = app.get(TenantConnections);
    const lease = await (connections.acquire('bank-a') as Promise<TenantLease>); // holds bank-a's pool busy
    try {
      const r = await list('bank-b', 'ru');
      expect([r.status, r.body.value.reason]).toEqual([503, 'LENDING_TENANT_CAPACITY']);
      expect(r.body.error).toMatch(/Повторите попытку/);
    } finally {
      lease.release();
    }
    expect((await list('bank-b')).body.value.total).toBe(1);
  });

  it('answers an organization without a database with a localised 503', async () => {
    const r = await list('bank-d', 'tr');
    expect([r.status, r.body.value.reason]).toEqual([503, 'LENDING_TENANT_DATABASE_MISSING']);
    expect(r.body.error).toMatch(/veritabanı/);
  });

  it('migrates every registered tenant database at start, including one registered behind its back', async () => {
    // Registered straight in the registry (as a restore would), never migrated: the next start does it.
    await app.get(TenantDatabasesRepository).put('bank-c', new TenantDbCrypto(KEY).seal(dbC.url));
    const before = await withClient(
      dbC.url,
      async (c) =>
        (await c.query(`SELECT to_regclass('lending.applications') IS NOT NULL AS ok`)).rows[0].ok as boolean,
    );
    expect(before).toBe(false);
    await app.close();
    app = await createLendingApp(env(), false);
    base = await listen(app);
    const migrated = await withClient(dbC.url, async (c) => ({
      names: (await c.query('SELECT name FROM lending.migrations ORDER BY id')).rows.map(
        (r) => r.name as string,
      ),
      org: (await c.query('SELECT id FROM lending.organizations')).rows.map((r) => r.id as string),
    }));
    expect(migrated.names).toContain('TenantIsolation1763850000000');
    expect(migrated.org).toEqual(['bank-c']);
    const c = await list('bank-c');
    expect([c.status, c.body.value.total]).toEqual([200, 0]);
    // Row-level security holds inside a tenant database too.
    await withClient(dbC.url, (cl) =>
      cl.query(`INSERT INTO lending.organizations (id, name) VALUES ('bank-x', 'X');
                INSERT INTO lending.applications (organization_id, status) VALUES ('bank-x', 'draft')`),
    );
    expect((await list('bank-c')).body.value.total).toBe(0);
  });
});
