import type { MigrationInterface, QueryRunner } from 'typeorm';
import { CHECK_OUTCOMES, CHECK_STEPS, sqlIn } from '../checks/check-steps';
import {
  PROVIDER_RESULTS,
  PROVIDER_SESSION_KINDS,
  PROVIDER_SESSION_STATUSES,
} from '../providers/identity-provider';

/**
 * Issue 13, checks (docs/verification/checks.md): the identity provider's sessions and the stored
 * result of every check step, one row per (document, step).
 */
export class Checks1763930000000 implements MigrationInterface {
  name = 'Checks1763930000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE verification.provider_sessions (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      organization_id text NOT NULL,
      case_id uuid NOT NULL,
      kind text NOT NULL,
      provider text NOT NULL,
      status text NOT NULL,
      result text,
      breakdown jsonb NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      completed_at timestamptz,
      CONSTRAINT provider_sessions_organization_id_fkey FOREIGN KEY (organization_id)
        REFERENCES verification.organizations (id),
      CONSTRAINT provider_sessions_case_id_fkey FOREIGN KEY (case_id)
        REFERENCES verification.verification_cases (id),
      CONSTRAINT provider_sessions_kind_check CHECK (${sqlIn('kind', PROVIDER_SESSION_KINDS)}),
      CONSTRAINT provider_sessions_status_check CHECK (${sqlIn('status', PROVIDER_SESSION_STATUSES)}),
      CONSTRAINT provider_sessions_result_check CHECK (result IS NULL OR ${sqlIn('result', PROVIDER_RESULTS)}))`);
    await q.query(
      `CREATE INDEX provider_sessions_case_idx ON verification.provider_sessions (organization_id, case_id, created_at)`,
    );
    await q.query(`CREATE TABLE verification.check_steps (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      organization_id text NOT NULL,
      case_id uuid NOT NULL,
      document_id uuid,
      provider_session_id uuid,
      step text NOT NULL,
      outcome text NOT NULL,
      rule text NOT NULL,
      evidence jsonb NOT NULL,
      detail text,
      created_at timestamptz NOT NULL DEFAULT now(),
      CONSTRAINT check_steps_organization_id_fkey FOREIGN KEY (organization_id)
        REFERENCES verification.organizations (id),
      CONSTRAINT check_steps_case_id_fkey FOREIGN KEY (case_id)
        REFERENCES verification.verification_cases (id),
      CONSTRAINT check_steps_provider_session_id_fkey FOREIGN KEY (provider_session_id)
        REFERENCES verification.provider_sessions (id),
      CONSTRAINT check_steps_step_check CHECK (${sqlIn('step', CHECK_STEPS)}),
      CONSTRAINT check_steps_outcome_check CHECK (${sqlIn('outcome', CHECK_OUTCOMES)}))`);
    await q.query(
      `CREATE INDEX check_steps_case_idx ON verification.check_steps (organization_id, case_id, created_at)`,
    );
    await q.query(`CREATE UNIQUE INDEX check_steps_document_step_key ON verification.check_steps (document_id, step)
      WHERE document_id IS NOT NULL`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE verification.check_steps');
    await q.query('DROP TABLE verification.provider_sessions');
  }
}
