import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Issue 13, cases: the cases' update time, the applicant upload tokens (only their SHA-256 is kept), the append-only status history, and the Idempotency-Key table of case creation
 * (docs/verification-api.md, "Idempotency").
 */
export class CaseLifecycle1763890000000 implements MigrationInterface {
  name = 'CaseLifecycle1763890000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(
      `ALTER TABLE verification.verification_cases ADD COLUMN updated_at timestamptz NOT NULL DEFAULT now()`,
    );
    await q.query(`CREATE TABLE verification.case_upload_tokens (
      token_hash text PRIMARY KEY,
      organization_id text NOT NULL,
      case_id uuid NOT NULL,
      created_at timestamptz NOT NULL,
      expires_at timestamptz NOT NULL,
      used_at timestamptz,
      CONSTRAINT case_upload_tokens_organization_id_fkey FOREIGN KEY (organization_id)
        REFERENCES verification.organizations (id),
      CONSTRAINT case_upload_tokens_case_id_fkey FOREIGN KEY (case_id)
        REFERENCES verification.verification_cases (id))`);
    await q.query(
      `CREATE INDEX case_upload_tokens_case_idx ON verification.case_upload_tokens (organization_id, case_id)`,
    );
    await q.query(
      `CREATE INDEX cases_org_created_idx ON verification.verification_cases (organization_id, created_at)`,
    );
    await q.query(`CREATE TABLE verification.case_status_history (
      id bigserial PRIMARY KEY,
      organization_id text NOT NULL,
      case_id uuid NOT NULL,
      from_status text,
      to_status text NOT NULL,
      changed_at timestamptz NOT NULL,
      CONSTRAINT case_status_history_organization_id_fkey FOREIGN KEY (organization_id)
        REFERENCES verification.organizations (id),
      CONSTRAINT case_status_history_case_id_fkey FOREIGN KEY (case_id)
        REFERENCES verification.verification_cases (id))`);
    await q.query(
      `CREATE INDEX case_status_history_case_idx ON verification.case_status_history (organization_id, case_id, id)`,
    );
    await q.query(`CREATE TABLE verification.case_idempotency_keys (
      organization_id text NOT NULL,
      key text NOT NULL,
      request_hash text NOT NULL,
      case_id uuid NOT NULL,
      created_at timestamptz NOT NULL,
      expires_at timestamptz NOT NULL,
      CONSTRAINT case_idempotency_keys_pkey PRIMARY KEY (organization_id, key),
      CONSTRAINT case_idempotency_keys_organization_id_fkey FOREIGN KEY (organization_id)
        REFERENCES verification.organizations (id),
      CONSTRAINT case_idempotency_keys_case_id_fkey FOREIGN KEY (case_id)
        REFERENCES verification.verification_cases (id))`);
    await q.query(
      `CREATE INDEX case_idempotency_keys_expires_idx ON verification.case_idempotency_keys (expires_at)`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE verification.case_idempotency_keys');
    await q.query('DROP TABLE verification.case_status_history');
    await q.query('DROP INDEX verification.cases_org_created_idx');
    await q.query('DROP TABLE verification.case_upload_tokens');
    await q.query('ALTER TABLE verification.verification_cases DROP COLUMN updated_at');
  }
}
