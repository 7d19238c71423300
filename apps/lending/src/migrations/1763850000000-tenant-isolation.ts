import type { MigrationInterface, QueryRunner } from 'typeorm';
import { TENANT_ROLE, tenantTableDdl } from '../tenancy/tenant-rls';

/**
 * Tenant isolation (decision 0025). The role every tenant transaction runs as (`SET LOCAL ROLE`): no
 * BYPASSRLS, no ownership, so row-level security applies even when the app connects as a superuser
 * (the embedded default). It is cluster-wide: created when missing, tolerating another database's
 * migration creating it at the same moment. The connecting user is made a member so it may switch to
 * it; tables created later in the schema are granted to it by default privileges, and each tenant
 * table gets its policy from `tenantTableDdl` (a test fails on a tenant table without one).
 * Also the tenant registry of the database-per-tenant mode (URLs encrypted by the app).
 */
export class TenantIsolation1763850000000 implements MigrationInterface {
  name = 'TenantIsolation1763850000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`DO $$ BEGIN
      IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = '${TENANT_ROLE}') THEN
        CREATE ROLE ${TENANT_ROLE} NOLOGIN NOBYPASSRLS;
      END IF;
    EXCEPTION WHEN duplicate_object OR unique_violation THEN NULL;
    END $$`);
    await q.query(`DO $$ BEGIN
      EXECUTE format('GRANT ${TENANT_ROLE} TO %I', current_user);
    EXCEPTION WHEN duplicate_object OR invalid_grant_operation THEN NULL;
    END $$`);
    await q.query(`GRANT USAGE ON SCHEMA lending TO ${TENANT_ROLE}`);
    await q.query(
      `ALTER DEFAULT PRIVILEGES IN SCHEMA lending GRANT SELECT, INSERT, UPDATE, DELETE ON TABLES TO ${TENANT_ROLE}`,
    );
    await q.query(
      `ALTER DEFAULT PRIVILEGES IN SCHEMA lending GRANT USAGE, SELECT ON SEQUENCES TO ${TENANT_ROLE}`,
    );
    // Tenant transactions write outbox events (contract events) and read their organization.
    await q.query(`GRANT SELECT, INSERT ON lending.outbox TO ${TENANT_ROLE}`);
    await q.query(`GRANT USAGE, SELECT ON ALL SEQUENCES IN SCHEMA lending TO ${TENANT_ROLE}`);
    await q.query(`GRANT SELECT ON lending.organizations TO ${TENANT_ROLE}`);
    for (const ddl of tenantTableDdl('applications')) await q.query(ddl);
    await q.query(`CREATE TABLE lending.tenant_databases (
      organization_id text PRIMARY KEY REFERENCES lending.organizations (id),
      url_ciphertext text NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now())`);
    await q.query(`REVOKE ALL ON lending.tenant_databases FROM ${TENANT_ROLE}`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE lending.tenant_databases');
    await q.query('DROP POLICY tenant_isolation ON lending.applications');
    await q.query('ALTER TABLE lending.applications NO FORCE ROW LEVEL SECURITY');
    await q.query('ALTER TABLE lending.applications DISABLE ROW LEVEL SECURITY');
  }
}
