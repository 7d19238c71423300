import type { MigrationInterface, QueryRunner } from 'typeorm';
import { TENANT_ROLE } from '../tenancy/tenant-rls';

/**
 * The organization's own key operations (issue, list, revoke: libs/tenancy ApiKeysRepository) now run
 * through TenantScopedRepository's door, as lending_tenant (decision 0032); `api_keys` predates the
 * default privileges of TenantIsolation1763850000000, so it is granted here. Lookups by key id stay on
 * the connecting user (api-key-lookup.unscoped.repository.ts).
 */
export class ApiKeysTenantGrant1764300000000 implements MigrationInterface {
  name = 'ApiKeysTenantGrant1764300000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`GRANT SELECT, INSERT, UPDATE, DELETE ON lending.api_keys TO ${TENANT_ROLE}`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`REVOKE SELECT, INSERT, UPDATE, DELETE ON lending.api_keys FROM ${TENANT_ROLE}`);
  }
}
