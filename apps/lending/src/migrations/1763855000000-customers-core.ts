import type { MigrationInterface, QueryRunner } from 'typeorm';
import { tenantTableDdl } from '../tenancy/tenant-rls';

/**
 * The customer row every lending area refers to (applications, loans); the customers area adds its
 * profile, identifiers, documents, consents and bank details in its own migrations.
 */
export class CustomersCore1763855000000 implements MigrationInterface {
  name = 'CustomersCore1763855000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE lending.customers (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      organization_id text NOT NULL REFERENCES lending.organizations (id),
      kind text NOT NULL CHECK (kind IN ('individual', 'business')),
      status text NOT NULL DEFAULT 'active',
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now())`);
    await q.query(
      `CREATE INDEX customers_org_created_idx ON lending.customers (organization_id, created_at)`,
    );
    for (const ddl of tenantTableDdl('customers')) await q.query(ddl);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE lending.customers');
  }
}
