import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { DataSource } from 'typeorm';
import {
  dataSourceOptions,
  inTenantTransaction,
  queryPrepared,
  txManager,
  type TenantIdentity,
} from '../src';

/*
 * What inTenantTransaction promises every tenant query: the tenant setting and the role are in force
 * from the work's very first statement, whichever way the work sends it (TypeORM's own query or a
 * prepared statement), and gone with the transaction; row-level security sees them; a failing setting
 * fails the transaction with its own error. A few lines of harness instead of @platform/testing: a
 * data-access lib may not depend on the testing lib (nx boundaries).
 */
const server = () => {
  const url = process.env.TEST_PG_SERVER_URL;
  if (!url) throw new Error('run through scripts/jest/int.config.js');
  return url;
};
const name = `tenant_tx_${randomBytes(4).toString('hex')}`;
const role = `tenant_tx_role_${randomBytes(3).toString('hex')}`;
let ds: DataSource;

async function admin(sql: string, db?: string): Promise<void> {
  const u = new URL(server());
  if (db) u.pathname = `/${db}`;
  const c = new Client({ connectionString: u.toString() });
  await c.connect();
  try {
    await c.query(sql);
  } finally {
    await c.end();
  }
}

beforeAll(async () => {
  await admin(`CREATE DATABASE "${name}"`);
  await admin(
    `CREATE SCHEMA t;
     CREATE TABLE t.notes (tenant text NOT NULL, body text NOT NULL);
     ALTER TABLE t.notes ENABLE ROW LEVEL SECURITY;
     ALTER TABLE t.notes FORCE ROW LEVEL SECURITY;
     DO $$ BEGIN CREATE ROLE ${role} NOLOGIN; EXCEPTION WHEN duplicate_object THEN NULL; END $$;
     GRANT USAGE ON SCHEMA t TO ${role};
     GRANT SELECT, INSERT ON t.notes TO ${role};
     CREATE POLICY by_tenant ON t.notes USING (tenant = current_setting('t.tenant', true))
       WITH CHECK (tenant = current_setting('t.tenant', true));
     INSERT INTO t.notes VALUES ('a', 'of a'), ('b', 'of b');`,
    name,
  );
  const u = new URL(server());
  u.pathname = `/${name}`;
  await admin(`GRANT ${role} TO CURRENT_USER`, name);
  ds = new DataSource(
    dataSourceOptions({
      url: u.toString(),
      schema: 't',
      entities: [],
      migrations: [],
      poolMax: 2,
      applicationName: 'tenant-transaction-test',
    }),
  );
  await ds.initialize();
});

afterAll(async () => {
  await ds?.destroy();
  await admin(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
});

const who = (tenant: string): TenantIdentity => ({ role, setting: 't.tenant', tenant });

describe('inTenantTransaction', () => {
  it("puts the tenant in force for the work's first statement, sent through TypeORM", async () => {
    const [row] = await inTenantTransaction(ds, who('a'), (tx) =>
      txManager(tx).query(`SELECT current_setting('t.tenant', true) AS tenant, current_user AS role`),
    );
    expect(row).toEqual({ tenant: 'a', role });
  });

  it("puts the tenant in force for the work's first statement, sent as a prepared statement", async () => {
    const rows = await inTenantTransaction(ds, who('b'), (tx) =>
      queryPrepared<{ body: string }>(tx, `SELECT body FROM t.notes WHERE $1::int = 1`, [1]),
    );
    expect(rows).toEqual([{ body: 'of b' }]);
  });

  it('leaves the setting and the role behind with the transaction', async () => {
    await inTenantTransaction(ds, who('a'), async () => undefined);
    const [row] = await ds.query(
      `SELECT coalesce(current_setting('t.tenant', true), '') AS tenant, current_user <> $1 AS other_role`,
      [role],
    );
    expect(row).toEqual({ tenant: '', other_role: true });
  });

  it("refuses another tenant's write under row-level security", async () => {
    await expect(
      inTenantTransaction(ds, who('a'), (tx) =>
        txManager(tx).query(`INSERT INTO t.notes VALUES ('b', 'smuggled')`),
      ),
    ).rejects.toThrow(/row-level security/);
  });

  it("fails the transaction with the setting's own error when the setting fails", async () => {
    const wrong: TenantIdentity = { role: 'no_such_role_for_this_test', setting: 't.tenant', tenant: 'a' };
    await expect(
      inTenantTransaction(ds, wrong, (tx) => txManager(tx).query(`SELECT body FROM t.notes`)),
    ).rejects.toThrow(/no_such_role_for_this_test/);
    const [count] = await ds.query(`SELECT count(*)::int AS n FROM t.notes`);
    expect(count.n).toBe(2);
  });
});
