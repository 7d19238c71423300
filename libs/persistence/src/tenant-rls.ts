import type { MigrationInterface, QueryRunner } from 'typeorm';
import { tenantRole, tenantSetting } from './tenant-scoped.repository';

/**
 * A schema's tenant role (decision 0032): what TenantScopedRepository's statements switch to. NOLOGIN,
 * NOBYPASSRLS and owning nothing, so row-level security applies to it even when the service connects as
 * a superuser (the embedded default). Cluster-wide: created when missing, tolerating another database's
 * migration creating it at the same moment; the connecting user becomes a member so it may switch to it.
 * It may read and write every table of the schema (outbox, journal and the like are written in the same
 * transactions); the tenant tables' policies are what restrict it.
 */
export function tenantRoleDdl(schema: string): string[] {
  const role = tenantRole(schema);
  return [
    `DO $$ BEGIN
      IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = '${role}') THEN
        CREATE ROLE ${role} NOLOGIN NOBYPASSRLS;
      END IF;
    EXCEPTION WHEN duplicate_object OR unique_violation THEN NULL;
    END $$`,
    `DO $$ BEGIN
      EXECUTE format('GRANT ${role} TO %I', current_user);
    EXCEPTION WHEN duplicate_object OR invalid_grant_operation THEN NULL;
    END $$`,
    `GRANT USAGE ON SCHEMA ${schema} TO ${role}`,
    `GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA ${schema} TO ${role}`,
    `GRANT USAGE, SELECT ON ALL SEQUENCES IN SCHEMA ${schema} TO ${role}`,
    `ALTER DEFAULT PRIVILEGES IN SCHEMA ${schema} GRANT SELECT, INSERT, UPDATE, DELETE ON TABLES TO ${role}`,
    `ALTER DEFAULT PRIVILEGES IN SCHEMA ${schema} GRANT USAGE, SELECT ON SEQUENCES TO ${role}`,
  ];
}

/**
 * A tenant table's isolation: enabled and FORCEd (the owner is held to it too). `tenant_isolation`: a
 * row is visible and writable only when its tenant column equals the transaction's setting
 * (`<schema>.<column>`, empty outside a tenant statement, which matches no row). `service_jobs`: the
 * migrating (= connecting) user, which the cross-tenant jobs of `*.unscoped.repository.ts` run as, is
 * allowed every row explicitly; the tenant role is not that user, so only `tenant_isolation` applies
 * to it.
 */
export function tenantTablePolicy(
  schema: string,
  table: string,
  column: string,
  /** The tenant column whose setting it reads, when the table names it otherwise (`tenant_id`). */
  settingColumn = column,
): string[] {
  const t = `${schema}.${table}`;
  const mine = `${column} = current_setting('${tenantSetting(schema, settingColumn)}', true)`;
  return [
    `ALTER TABLE ${t} ENABLE ROW LEVEL SECURITY`,
    `ALTER TABLE ${t} FORCE ROW LEVEL SECURITY`,
    `CREATE POLICY tenant_isolation ON ${t} USING (${mine}) WITH CHECK (${mine})`,
    `DO $$ BEGIN
      EXECUTE format('CREATE POLICY service_jobs ON ${t} TO %I USING (true) WITH CHECK (true)', current_user);
    END $$`,
  ];
}

/** Undoes tenantTablePolicy. */
export function dropTenantTablePolicy(schema: string, table: string): string[] {
  const t = `${schema}.${table}`;
  return [
    `DROP POLICY IF EXISTS service_jobs ON ${t}`,
    `DROP POLICY IF EXISTS tenant_isolation ON ${t}`,
    `ALTER TABLE ${t} NO FORCE ROW LEVEL SECURITY`,
    `ALTER TABLE ${t} DISABLE ROW LEVEL SECURITY`,
  ];
}

/** A tenant table and the column holding its tenant. */
export interface TenantTable {
  table: string;
  column: string;
  /** The service's own tenant column, whose setting the policy reads (default: `column`). */
  settingColumn?: string;
}

/**
 * The migration that puts a service's tenant tables under row-level security (decision 0032): the
 * schema's tenant role (tenantRoleDdl), then tenantTablePolicy on every table of the schema that has
 * the tenant `column` at the time it runs (so none is forgotten; tenant tables created later get
 * their policy in their own migration, which each service's tenant-isolation test checks), and on
 * `also` (tables keyed by another column, e.g. `api_keys.owner_id`).
 */
export function tenantIsolationMigration(
  name: string,
  schema: string,
  column: string,
  also: readonly TenantTable[] = [],
): new () => MigrationInterface {
  return class implements MigrationInterface {
    name = name;

    async up(q: QueryRunner): Promise<void> {
      for (const ddl of tenantRoleDdl(schema)) await q.query(ddl);
      for (const t of [...(await tablesWith(q, schema, column)), ...also])
        for (const ddl of tenantTablePolicy(schema, t.table, t.column, t.settingColumn)) await q.query(ddl);
    }

    async down(q: QueryRunner): Promise<void> {
      for (const { table } of [...(await tablesWith(q, schema, column)), ...also])
        for (const ddl of dropTenantTablePolicy(schema, table)) await q.query(ddl);
    }
  };
}

async function tablesWith(q: QueryRunner, schema: string, column: string): Promise<TenantTable[]> {
  const rows = (await q.query(
    `SELECT c.relname AS table FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE n.nspname = $1 AND c.relkind = 'r'
        AND EXISTS (SELECT 1 FROM pg_attribute a WHERE a.attrelid = c.oid AND a.attname = $2 AND NOT a.attisdropped)
      ORDER BY 1`,
    [schema, column],
  )) as { table: string }[];
  return rows.map((r) => ({ table: r.table, column }));
}

/**
 * A later migration's policies for named tables (tenantTablePolicy each; the schema's role exists
 * already, from tenantIsolationMigration).
 */
export function tenantPoliciesMigration(
  name: string,
  schema: string,
  tables: readonly TenantTable[],
): new () => MigrationInterface {
  return class implements MigrationInterface {
    name = name;

    async up(q: QueryRunner): Promise<void> {
      for (const t of tables)
        for (const ddl of tenantTablePolicy(schema, t.table, t.column, t.settingColumn)) await q.query(ddl);
    }

    async down(q: QueryRunner): Promise<void> {
      for (const { table } of tables)
        for (const ddl of dropTenantTablePolicy(schema, table)) await q.query(ddl);
    }
  };
}
