import { DataSource } from 'typeorm';
import { createTestDatabase } from '@platform/testing';
import { adoptSharedKeyTableMigration, apiKeyTablesDdl } from '@platform/tenancy';

/**
 * The key tables as the first migrations of lending and calendar created them, before libs/tenancy.
 * (The library's own migration helper is tested here, on a service that went through it.)
 */
const LEGACY = {
  lending: [
    `CREATE TABLE legacy_lending.organizations (id text PRIMARY KEY, name text NOT NULL,
       created_at timestamptz NOT NULL DEFAULT now())`,
    `CREATE TABLE legacy_lending.partner_keys (
       id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
       key_id text NOT NULL UNIQUE,
       organization_id text NOT NULL REFERENCES legacy_lending.organizations(id),
       hash text NOT NULL, label text NOT NULL, scopes text[] NOT NULL, revoked_at timestamptz,
       created_at timestamptz NOT NULL DEFAULT now())`,
  ],
  verification: [
    `CREATE TABLE legacy_verification.organizations (id text PRIMARY KEY, name text NOT NULL,
       created_at timestamptz NOT NULL DEFAULT now())`,
    `CREATE TABLE legacy_verification.api_keys (
       id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
       key_id text NOT NULL UNIQUE,
       organization_id text NOT NULL REFERENCES legacy_verification.organizations(id),
       hash text NOT NULL, label text NOT NULL, scopes text[] NOT NULL, revoked_at timestamptz,
       created_at timestamptz NOT NULL DEFAULT now())`,
  ],
  calendar: [
    `CREATE TABLE legacy_calendar.products (id text PRIMARY KEY, name text NOT NULL,
       created_at timestamptz NOT NULL DEFAULT now())`,
    `CREATE TABLE legacy_calendar.product_keys (
       id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
       key_id text NOT NULL UNIQUE,
       product_id text NOT NULL REFERENCES legacy_calendar.products(id),
       hash text NOT NULL, label text NOT NULL, is_default boolean NOT NULL DEFAULT false,
       revoked_at timestamptz, created_at timestamptz NOT NULL DEFAULT now())`,
  ],
};

/** What a schema's `api_keys` looks like: columns with type, nullability, default; constraints; indexes. */
async function shape(ds: DataSource, schema: string): Promise<string[]> {
  const columns = (await ds.query(
    `SELECT column_name, data_type, is_nullable, column_default FROM information_schema.columns
      WHERE table_schema = $1 AND table_name = 'api_keys'`,
    [schema],
  )) as Record<string, string | null>[];
  const constraints = (await ds.query(
    `SELECT conname, contype, pg_get_constraintdef(oid) AS def FROM pg_constraint
      WHERE conrelid = to_regclass($1)`,
    [`${schema}.api_keys`],
  )) as Record<string, string>[];
  const indexes = (await ds.query(
    `SELECT indexname, indexdef FROM pg_indexes WHERE schemaname = $1 AND tablename = 'api_keys'`,
    [schema],
  )) as Record<string, string>[];
  return [
    ...columns.map((c) => `column ${c.column_name} ${c.data_type} ${c.is_nullable} ${c.column_default}`),
    ...constraints.map((c) => `constraint ${c.conname} ${c.contype} ${c.def}`),
    ...indexes.map((i) => `index ${i.indexname} ${i.indexdef}`),
  ]
    .map((line) => line.replaceAll(`${schema}.`, 'SCHEMA.'))
    .sort();
}

describe('moving legacy key tables to the shared api_keys table (real PostgreSQL)', () => {
  let db: Awaited<ReturnType<typeof createTestDatabase>>;
  let ds: DataSource;

  beforeAll(async () => {
    db = await createTestDatabase('adopt_keys');
    ds = new DataSource({ type: 'postgres', url: db.url });
    await ds.initialize();
  });

  afterAll(async () => {
    await ds?.destroy();
    await db?.drop();
  });

  const run = async (migration: ReturnType<typeof adoptSharedKeyTableMigration>) => {
    const runner = ds.createQueryRunner();
    try {
      await new migration().up(runner);
    } finally {
      await runner.release();
    }
  };

  it.each([
    [
      'lending',
      'organizations',
      { table: 'partner_keys', ownerColumn: 'organization_id', hasScopes: true, hasIsDefault: false },
    ],
    [
      'calendar',
      'products',
      { table: 'product_keys', ownerColumn: 'product_id', hasScopes: false, hasIsDefault: true },
    ],
  ] as const)(
    "%s's legacy table ends exactly like a fresh one, and keeps its keys",
    async (service, ownerTable, legacy) => {
      const [old, fresh] = [`legacy_${service}`, `fresh_${service}`];
      await ds.query(`CREATE SCHEMA ${old}`);
      await ds.query(`CREATE SCHEMA ${fresh}`);
      for (const ddl of LEGACY[service]) await ds.query(ddl);
      for (const ddl of apiKeyTablesDdl(fresh, { ownerTable })) await ds.query(ddl);
      await ds.query(`INSERT INTO ${old}.${ownerTable} (id, name) VALUES ('t1', 'Tenant one')`);
      await ds.query(
        `INSERT INTO ${old}.${legacy.table} (key_id, ${legacy.ownerColumn}, hash, label${legacy.hasScopes ? ', scopes' : ''})
         VALUES ('K1', 't1', 'abc', 'kept'${legacy.hasScopes ? ", '{x:read}'" : ''})`,
      );

      const freshBefore = await shape(ds, fresh);
      await run(adoptSharedKeyTableMigration('AdoptTest1763720000000', old, legacy));
      // On a database that already has the shared table, the same migration changes nothing.
      await run(adoptSharedKeyTableMigration('AdoptTest1763720000000', fresh, legacy));

      expect(await shape(ds, old)).toEqual(freshBefore);
      expect(await shape(ds, fresh)).toEqual(freshBefore);
      expect(freshBefore.length).toBeGreaterThan(10);
      const [row] = (await ds.query(
        `SELECT key_id, owner_id, hash, label, scopes, is_default, expires_at FROM ${old}.api_keys`,
      )) as Record<string, unknown>[];
      expect(row).toEqual({
        key_id: 'K1',
        owner_id: 't1',
        hash: 'abc',
        label: 'kept',
        scopes: legacy.hasScopes ? ['x:read'] : [],
        is_default: false,
        expires_at: null,
      });
    },
  );
});
