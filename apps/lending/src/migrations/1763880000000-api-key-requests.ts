import type { MigrationInterface, QueryRunner } from 'typeorm';
import { tenantTableDdl } from '../tenancy/tenant-rls';

/**
 * Partner keys' request log and last-used times (docs/lending/api-keys.md): tenant data, so each
 * table carries `organization_id` under the forced row-level security policy (decision 0025). The
 * second index serves the retention purge (oldest first, per organization).
 */
export class ApiKeyRequests1763880000000 implements MigrationInterface {
  name = 'ApiKeyRequests1763880000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE lending.api_key_requests (
      id bigserial PRIMARY KEY,
      organization_id text NOT NULL,
      key_id text NOT NULL,
      at timestamptz NOT NULL,
      method text NOT NULL,
      path text NOT NULL,
      status integer NOT NULL,
      duration_ms integer NOT NULL,
      request_id text NOT NULL,
      CONSTRAINT api_key_requests_organization_id_fkey FOREIGN KEY (organization_id)
        REFERENCES lending.organizations (id))`);
    await q.query(
      `CREATE INDEX api_key_requests_key_idx ON lending.api_key_requests (organization_id, key_id, at, id)`,
    );
    await q.query(
      `CREATE INDEX api_key_requests_org_at_idx ON lending.api_key_requests (organization_id, at)`,
    );
    for (const ddl of tenantTableDdl('api_key_requests')) await q.query(ddl);
    await q.query(`CREATE TABLE lending.api_key_usage (
      organization_id text NOT NULL,
      key_id text NOT NULL,
      last_used_at timestamptz NOT NULL,
      CONSTRAINT api_key_usage_pkey PRIMARY KEY (organization_id, key_id),
      CONSTRAINT api_key_usage_organization_id_fkey FOREIGN KEY (organization_id)
        REFERENCES lending.organizations (id))`);
    for (const ddl of tenantTableDdl('api_key_usage')) await q.query(ddl);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE lending.api_key_usage');
    await q.query('DROP TABLE lending.api_key_requests');
  }
}
