import { randomBytes } from 'node:crypto';
import { Client, type Pool, type PoolClient } from 'pg';
import { Column, DataSource, Entity, PrimaryColumn } from 'typeorm';
import { TenantScopedRepository, dataSourceOptions, poolOf, tenantRole } from '../src';
import { TenantStatementQuery } from '../src/tenant-statement-query';

/*
 * A tenant statement outside any transaction (TenantScopedRepository.sql without a tx) goes out as the
 * tenant setting and the statement in one implicit transaction (TenantStatementQuery): the setting holds
 * for the statement and ends with it, row-level security sees it, a failing statement leaves the
 * connection usable, and no BEGIN or COMMIT is sent (the statement and the setting share a transaction).
 */
const schema = `ts_${randomBytes(3).toString('hex')}`;
const db = `tenant_stmt_${randomBytes(4).toString('hex')}`;

@Entity({ schema, name: 'notes' })
class Note {
  @PrimaryColumn({ name: 'tenant_id', type: 'text' }) tenantId: string;
  @PrimaryColumn({ type: 'text' }) body: string;
  @Column({ type: 'int', default: 0 }) n: number;
}

class Notes extends TenantScopedRepository<Note, 'tenantId'> {
  constructor(ds: DataSource) {
    super(ds, Note, 'tenantId');
  }
  run<R>(tenant: string, text: string, params: unknown[] = [], prepared = false) {
    return prepared ? this.sqlPrepared<R>(tenant, text, params) : this.sql<R>(tenant, text, params);
  }
}

async function admin(sql: string, database?: string): Promise<void> {
  const u = new URL(process.env.TEST_PG_SERVER_URL as string);
  if (database) u.pathname = `/${database}`;
  const c = new Client({ connectionString: u.toString() });
  await c.connect();
  try {
    await c.query(sql);
  } finally {
    await c.end();
  }
}

let ds: DataSource;
let notes: Notes;
const role = tenantRole(schema);

beforeAll(async () => {
  await admin(`CREATE DATABASE "${db}"`);
  await admin(
    `CREATE SCHEMA ${schema};
     CREATE TABLE ${schema}.notes (tenant_id text NOT NULL, body text NOT NULL, n int NOT NULL DEFAULT 0,
       PRIMARY KEY (tenant_id, body));
     ALTER TABLE ${schema}.notes ENABLE ROW LEVEL SECURITY;
     ALTER TABLE ${schema}.notes FORCE ROW LEVEL SECURITY;
     DO $$ BEGIN CREATE ROLE ${role} NOLOGIN; EXCEPTION WHEN duplicate_object THEN NULL; END $$;
     GRANT USAGE ON SCHEMA ${schema} TO ${role};
     GRANT SELECT, INSERT, UPDATE ON ${schema}.notes TO ${role};
     CREATE POLICY by_tenant ON ${schema}.notes
       USING (tenant_id = current_setting('${schema}.tenant_id', true))
       WITH CHECK (tenant_id = current_setting('${schema}.tenant_id', true));
     INSERT INTO ${schema}.notes VALUES ('a', 'of a', 0), ('b', 'of b', 0);`,
    db,
  );
  const u = new URL(process.env.TEST_PG_SERVER_URL as string);
  u.pathname = `/${db}`;
  // One connection: every statement below meets the state the one before it left.
  ds = new DataSource(
    dataSourceOptions({
      url: u.toString(),
      schema,
      entities: [Note],
      migrations: [],
      poolMax: 1,
      applicationName: 'tenant-statement-test',
    }),
  );
  await ds.initialize();
  notes = new Notes(ds);
});

afterAll(async () => {
  await ds?.destroy();
  await admin(`DROP DATABASE IF EXISTS "${db}" WITH (FORCE)`);
});

describe('a tenant statement outside a transaction', () => {
  it('runs as the tenant, in the same transaction as its setting, and leaves nothing behind', async () => {
    for (const prepared of [false, true, true]) {
      const [row] = await notes.run<Record<string, unknown>>(
        'a',
        `SELECT $1::text AS bound, current_setting('${schema}.tenant_id', true) AS tenant, current_user AS who,
                (SELECT array_agg(body ORDER BY body) FROM ${schema}.notes) AS visible`,
        [],
        prepared,
      );
      expect(row).toEqual({ bound: 'a', tenant: 'a', who: role, visible: ['of a'] });
    }
    const [after] = await ds.query(
      `SELECT coalesce(current_setting('${schema}.tenant_id', true), '') AS tenant, current_user <> $1 AS other`,
      [role],
    );
    expect(after).toEqual({ tenant: '', other: true });
  });

  it('sends it with its setting as one query, no BEGIN or COMMIT, in one implicit transaction', async () => {
    const pool = poolOf(ds) as Pool;
    const sent: string[] = [];
    const connect = pool.connect.bind(pool) as () => Promise<PoolClient>;
    const spy = jest.spyOn(pool, 'connect').mockImplementation((async () => {
      const client = await connect();
      const query = client.query.bind(client) as (q: unknown) => unknown;
      jest.spyOn(client, 'query').mockImplementation(((q: { text?: string }) => {
        sent.push(q instanceof TenantStatementQuery ? `tenant: ${q.text}` : String(q.text ?? q));
        return query(q);
      }) as never);
      return client;
    }) as never);
    try {
      const [row] = await notes.run<{ same: boolean }>(
        'b',
        // The statement's transaction began before it (with the setting), and it is not a block of BEGIN.
        `SELECT $1::text IS NOT NULL AND statement_timestamp() > transaction_timestamp() AS same`,
      );
      expect(row.same).toBe(true);
    } finally {
      spy.mockRestore();
    }
    expect(sent.filter((t) => /^(BEGIN|COMMIT|START)/i.test(t))).toEqual([]);
    expect(sent.filter((t) => t.startsWith('tenant: '))).toHaveLength(1);
  });

  it("cannot write another tenant's row, and the connection stays usable after a failure", async () => {
    await expect(
      notes.run(
        'a',
        `INSERT INTO ${schema}.notes (tenant_id, body) SELECT 'b', $2 WHERE $1::text IS NOT NULL`,
        ['x'],
      ),
    ).rejects.toThrow(/row-level security/);
    await expect(
      notes.run('a', `INSERT INTO ${schema}.notes (tenant_id, body) VALUES ($1, 'of a')`),
    ).rejects.toMatchObject({ driverError: { code: '23505' } });
    const rows = await notes.run<{ body: string }>(
      'b',
      `UPDATE ${schema}.notes SET n = n + 1 WHERE tenant_id = $1 RETURNING body`,
    );
    expect(rows).toEqual([{ body: 'of b' }]);
    const [counts] = await ds.query(`SELECT count(*)::int AS all_rows FROM ${schema}.notes`);
    expect(counts.all_rows).toBe(2);
  });
});
