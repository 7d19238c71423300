import type { MigrationInterface, QueryRunner } from 'typeorm';
import { APPLICATION_CHANNELS } from '../applications/application-channels';
import { CHECK_STATUSES, CHECK_STEPS } from '../applications/checks/check-steps';
import { DECIDERS, DECISION_OUTCOMES } from '../applications/decisions/decision-reasons';
import {
  EXTERNAL_CALL_MODES,
  EXTERNAL_CALL_STATUSES,
} from '../applications/external-calls/external-call.entity';
import { sqlIn } from '../common/columns';
import { APPLICATION_ACTIONS, APPLICATION_STATUSES } from '../applications/workflow/application-workflow';
import { MOVE_ACTORS } from '../applications/workflow/status-change.entity';
import { TENANT_ROLE, tenantTableDdl } from '../tenancy/tenant-rls';

/** Tables whose rows are a record of what happened: the tenant role may add to them, never change them. */
const APPEND_ONLY = ['application_status_history', 'application_decisions', 'external_calls'];

/**
 * The applications area (issue 12, docs/lending/applications.md): the application's request, its
 * status history, check steps, underwriting decisions and the external-call log. The foundation's
 * `applications` rows stay valid: the new columns are nullable (only `updated_at` has a default).
 */
export class ApplicationsWorkflow1763870000000 implements MigrationInterface {
  name = 'ApplicationsWorkflow1763870000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE lending.applications
      ADD COLUMN customer_id uuid,
      ADD COLUMN product_code text,
      ADD COLUMN amount bigint,
      ADD COLUMN currency text,
      ADD COLUMN term_months integer,
      ADD COLUMN purpose text,
      ADD COLUMN channel text,
      ADD COLUMN national_id text,
      ADD COLUMN monthly_income bigint,
      ADD COLUMN monthly_expenses bigint,
      ADD COLUMN created_by_key_id text,
      ADD COLUMN checks_started_at timestamptz,
      ADD COLUMN updated_at timestamptz NOT NULL DEFAULT now(),
      ADD CONSTRAINT applications_customer_id_fkey FOREIGN KEY (customer_id) REFERENCES lending.customers (id),
      ADD CONSTRAINT applications_status_check CHECK (${sqlIn('status', APPLICATION_STATUSES)}),
      ADD CONSTRAINT applications_channel_check CHECK (${sqlIn('channel', APPLICATION_CHANNELS)}),
      ADD CONSTRAINT applications_request_check CHECK (amount > 0 AND term_months > 0),
      ADD CONSTRAINT applications_currency_check CHECK (currency ~ '^[A-Z]{3}$'),
      ADD CONSTRAINT applications_income_check CHECK (monthly_income >= 0 AND monthly_expenses >= 0)`);
    await q.query(`CREATE INDEX applications_org_status_created_idx
      ON lending.applications (organization_id, status, created_at)`);
    await q.query(`CREATE INDEX applications_org_customer_created_idx
      ON lending.applications (organization_id, customer_id, created_at)`);

    await q.query(`CREATE TABLE lending.application_status_history (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      organization_id text NOT NULL REFERENCES lending.organizations (id),
      application_id uuid NOT NULL REFERENCES lending.applications (id),
      seq integer NOT NULL,
      from_status text,
      to_status text NOT NULL,
      action text NOT NULL,
      actor text NOT NULL,
      key_id text,
      reason text,
      created_at timestamptz NOT NULL DEFAULT now(),
      CONSTRAINT application_status_history_actor_check CHECK (${sqlIn('actor', MOVE_ACTORS)}),
      CONSTRAINT application_status_history_action_check CHECK (${sqlIn('action', APPLICATION_ACTIONS)}))`);
    await q.query(`CREATE UNIQUE INDEX application_status_history_app_seq_key
      ON lending.application_status_history (application_id, seq)`);

    await q.query(`CREATE TABLE lending.application_checks (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      organization_id text NOT NULL REFERENCES lending.organizations (id),
      application_id uuid NOT NULL REFERENCES lending.applications (id),
      step text NOT NULL,
      status text NOT NULL,
      provider text NOT NULL,
      attempts integer NOT NULL DEFAULT 0,
      result jsonb,
      reason_code text,
      started_at timestamptz,
      completed_at timestamptz,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      CONSTRAINT application_checks_step_check CHECK (${sqlIn('step', CHECK_STEPS)}),
      CONSTRAINT application_checks_status_check CHECK (${sqlIn('status', CHECK_STATUSES)}))`);
    await q.query(`CREATE UNIQUE INDEX application_checks_app_step_key
      ON lending.application_checks (application_id, step)`);

    await q.query(`CREATE TABLE lending.application_decisions (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      organization_id text NOT NULL REFERENCES lending.organizations (id),
      application_id uuid NOT NULL REFERENCES lending.applications (id),
      outcome text NOT NULL,
      decided_by text NOT NULL,
      key_id text,
      reasons text[] NOT NULL DEFAULT '{}',
      note text,
      offered_amount bigint,
      offered_currency text,
      offered_term_months integer,
      offered_rate_bps integer,
      created_at timestamptz NOT NULL DEFAULT now(),
      CONSTRAINT application_decisions_outcome_check CHECK (${sqlIn('outcome', DECISION_OUTCOMES)}),
      CONSTRAINT application_decisions_decided_by_check CHECK (${sqlIn('decided_by', DECIDERS)}))`);
    await q.query(`CREATE INDEX application_decisions_app_created_idx
      ON lending.application_decisions (application_id, created_at)`);

    await q.query(`CREATE TABLE lending.external_calls (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      organization_id text NOT NULL REFERENCES lending.organizations (id),
      application_id uuid REFERENCES lending.applications (id),
      customer_id uuid,
      check_step text,
      provider text NOT NULL,
      operation text NOT NULL,
      mode text NOT NULL,
      status text NOT NULL,
      request jsonb,
      response jsonb,
      error text,
      duration_ms integer NOT NULL,
      started_at timestamptz NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      CONSTRAINT external_calls_status_check CHECK (${sqlIn('status', EXTERNAL_CALL_STATUSES)}),
      CONSTRAINT external_calls_mode_check CHECK (${sqlIn('mode', EXTERNAL_CALL_MODES)}))`);
    await q.query(`CREATE INDEX external_calls_org_created_idx
      ON lending.external_calls (organization_id, created_at)`);
    await q.query(`CREATE INDEX external_calls_org_app_created_idx
      ON lending.external_calls (organization_id, application_id, created_at)`);

    for (const table of [
      'application_status_history',
      'application_checks',
      'application_decisions',
      'external_calls',
    ])
      for (const ddl of tenantTableDdl(table)) await q.query(ddl);
    for (const table of APPEND_ONLY)
      await q.query(`REVOKE UPDATE, DELETE ON lending.${table} FROM ${TENANT_ROLE}`);
  }

  async down(q: QueryRunner): Promise<void> {
    for (const table of [
      'external_calls',
      'application_decisions',
      'application_checks',
      'application_status_history',
    ])
      await q.query(`DROP TABLE lending.${table}`);
    await q.query('DROP INDEX lending.applications_org_customer_created_idx');
    await q.query('DROP INDEX lending.applications_org_status_created_idx');
    await q.query(`ALTER TABLE lending.applications
      DROP CONSTRAINT applications_income_check,
      DROP CONSTRAINT applications_currency_check,
      DROP CONSTRAINT applications_request_check,
      DROP CONSTRAINT applications_channel_check,
      DROP CONSTRAINT applications_status_check,
      DROP CONSTRAINT applications_customer_id_fkey,
      DROP COLUMN updated_at,
      DROP COLUMN checks_started_at,
      DROP COLUMN created_by_key_id,
      DROP COLUMN monthly_expenses,
      DROP COLUMN monthly_income,
      DROP COLUMN national_id,
      DROP COLUMN channel,
      DROP COLUMN purpose,
      DROP COLUMN term_months,
      DROP COLUMN currency,
      DROP COLUMN amount,
      DROP COLUMN product_code,
      DROP COLUMN customer_id`);
  }
}
