import type { MigrationInterface, QueryRunner } from 'typeorm';
import { TENANT_ROLE, tenantTableDdl } from '../tenancy/tenant-rls';

/**
 * Customers' consent history, append-only: after the usual tenant grants, the tenant role loses
 * UPDATE and DELETE on it, so no request can rewrite when or how a consent was given.
 */
export class CustomerConsents1763863000000 implements MigrationInterface {
  name = 'CustomerConsents1763863000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE lending.customer_consents (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      organization_id text NOT NULL
        CONSTRAINT customer_consents_organization_id_fkey REFERENCES lending.organizations (id),
      customer_id uuid NOT NULL,
      type text NOT NULL CONSTRAINT customer_consents_type_check CHECK (type IN ('personal_data_processing',
        'credit_bureau_request', 'credit_bureau_reporting', 'marketing', 'electronic_signature')),
      action text NOT NULL CONSTRAINT customer_consents_action_check CHECK (action IN ('given', 'withdrawn')),
      text_version text NOT NULL,
      channel text NOT NULL
        CONSTRAINT customer_consents_channel_check CHECK (channel IN ('web', 'mobile', 'branch', 'api')),
      ip_address inet,
      user_agent text,
      evidence text,
      recorded_at timestamptz NOT NULL DEFAULT now(),
      CONSTRAINT customer_consents_customer_fkey FOREIGN KEY (organization_id, customer_id)
        REFERENCES lending.customers (organization_id, id))`);
    await q.query(`CREATE INDEX customer_consents_customer_idx
      ON lending.customer_consents (organization_id, customer_id, type, recorded_at)`);
    for (const ddl of tenantTableDdl('customer_consents')) await q.query(ddl);
    await q.query(`REVOKE UPDATE, DELETE ON lending.customer_consents FROM ${TENANT_ROLE}`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE lending.customer_consents');
  }
}
