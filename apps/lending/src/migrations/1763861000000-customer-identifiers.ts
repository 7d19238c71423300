import type { MigrationInterface, QueryRunner } from 'typeorm';
import { tenantTableDdl } from '../tenancy/tenant-rls';

/** Customers' national ids, passports and tax ids: one normalised value per type and country. */
export class CustomerIdentifiers1763861000000 implements MigrationInterface {
  name = 'CustomerIdentifiers1763861000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE lending.customer_identifiers (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      organization_id text NOT NULL
        CONSTRAINT customer_identifiers_organization_id_fkey REFERENCES lending.organizations (id),
      customer_id uuid NOT NULL,
      type text NOT NULL CONSTRAINT customer_identifiers_type_check CHECK (type IN ('national_id', 'passport', 'tax_id')),
      country text NOT NULL CONSTRAINT customer_identifiers_country_check CHECK (country ~ '^[A-Z]{2}$'),
      value text NOT NULL,
      scheme text NOT NULL,
      issue_date date,
      expiry_date date,
      issued_by text,
      created_at timestamptz NOT NULL DEFAULT now(),
      CONSTRAINT customer_identifiers_customer_fkey FOREIGN KEY (organization_id, customer_id)
        REFERENCES lending.customers (organization_id, id),
      CONSTRAINT customer_identifiers_value_key UNIQUE (organization_id, type, country, value))`);
    await q.query(`CREATE INDEX customer_identifiers_customer_idx
      ON lending.customer_identifiers (organization_id, customer_id)`);
    // Search by identifier looks a value up in any type and country.
    await q.query(`CREATE INDEX customer_identifiers_org_value_idx
      ON lending.customer_identifiers (organization_id, value)`);
    for (const ddl of tenantTableDdl('customer_identifiers')) await q.query(ddl);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE lending.customer_identifiers');
  }
}
