import type { MigrationInterface, QueryRunner } from 'typeorm';
import { TENANT_ROLE, tenantTableDdl } from '../tenancy/tenant-rls';

/**
 * The daily accounting file (docs/lending/events.md, "Daily accounting file"): lending's own record of
 * every accounting event it wrote (the outbox's sent rows are purged, so the file cannot be built from
 * it) and the closed accounting days with the checksum of their file. Both append-only for the tenant
 * role: a closed day's file never changes, a correction is a later day's event.
 */
export class AccountingFile1764021000000 implements MigrationInterface {
  name = 'AccountingFile1764021000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE lending.accounting_events (
      organization_id text NOT NULL
        CONSTRAINT accounting_events_organization_id_fkey REFERENCES lending.organizations (id),
      seq bigserial NOT NULL,
      event_id uuid NOT NULL CONSTRAINT accounting_events_event_id_key UNIQUE,
      event_type text NOT NULL,
      business_date date NOT NULL,
      payload jsonb NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      CONSTRAINT accounting_events_pkey PRIMARY KEY (organization_id, seq)
    )`);
    await q.query(
      `CREATE INDEX accounting_events_day_idx ON lending.accounting_events (organization_id, business_date, seq)`,
    );
    await q.query(`CREATE TABLE lending.accounting_days (
      organization_id text NOT NULL
        CONSTRAINT accounting_days_organization_id_fkey REFERENCES lending.organizations (id),
      business_date date NOT NULL,
      closed_at timestamptz NOT NULL,
      day_closed_event_id uuid NOT NULL,
      event_count integer NOT NULL,
      record_count integer NOT NULL,
      file_name text NOT NULL,
      file_sha256 text NOT NULL CONSTRAINT accounting_days_file_sha256_check CHECK (file_sha256 ~ '^[0-9a-f]{64}$'),
      file_bytes integer NOT NULL,
      CONSTRAINT accounting_days_pkey PRIMARY KEY (organization_id, business_date)
    )`);
    for (const table of ['accounting_events', 'accounting_days'])
      for (const ddl of tenantTableDdl(table)) await q.query(ddl);
    await q.query(
      `REVOKE UPDATE, DELETE ON lending.accounting_events, lending.accounting_days FROM ${TENANT_ROLE}`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE lending.accounting_days');
    await q.query('DROP TABLE lending.accounting_events');
  }
}
