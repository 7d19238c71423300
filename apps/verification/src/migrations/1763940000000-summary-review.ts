import type { MigrationInterface, QueryRunner } from 'typeorm';
import { REVIEW_DECISIONS, REVIEW_ORIGINS, REVIEW_TASK_STATUSES } from '../review/review-statuses';
import { RECOMMENDATIONS, sqlIn } from '../summary/summary-types';

/**
 * Issue 13, summary and manual review (docs/verification/summary.md, docs/verification/manual-review.md):
 * the versioned summaries of a case, and the review tasks with their comments and status history.
 */
export class SummaryReview1763940000000 implements MigrationInterface {
  name = 'SummaryReview1763940000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE verification.case_summaries (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      organization_id text NOT NULL,
      case_id uuid NOT NULL,
      version int NOT NULL,
      generated_at timestamptz NOT NULL,
      identity_match jsonb NOT NULL,
      authenticity jsonb NOT NULL,
      flags jsonb NOT NULL,
      recommendation text NOT NULL,
      rules_version text NOT NULL,
      CONSTRAINT case_summaries_organization_id_fkey FOREIGN KEY (organization_id)
        REFERENCES verification.organizations (id),
      CONSTRAINT case_summaries_case_id_fkey FOREIGN KEY (case_id)
        REFERENCES verification.verification_cases (id),
      CONSTRAINT case_summaries_recommendation_check CHECK (${sqlIn('recommendation', RECOMMENDATIONS)}),
      CONSTRAINT case_summaries_version_check CHECK (version >= 1))`);
    await q.query(
      `CREATE UNIQUE INDEX case_summaries_case_version_key ON verification.case_summaries (case_id, version)`,
    );
    await q.query(
      `CREATE INDEX case_summaries_organization_case_idx ON verification.case_summaries (organization_id, case_id, version)`,
    );

    await q.query(`CREATE TABLE verification.review_tasks (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      organization_id text NOT NULL,
      case_id uuid NOT NULL,
      status text NOT NULL,
      reason text NOT NULL,
      origin text NOT NULL,
      summary_id uuid,
      flags jsonb NOT NULL,
      assignee text,
      decision text,
      decided_at timestamptz,
      created_at timestamptz NOT NULL,
      updated_at timestamptz NOT NULL,
      CONSTRAINT review_tasks_organization_id_fkey FOREIGN KEY (organization_id)
        REFERENCES verification.organizations (id),
      CONSTRAINT review_tasks_case_id_fkey FOREIGN KEY (case_id)
        REFERENCES verification.verification_cases (id),
      CONSTRAINT review_tasks_summary_id_fkey FOREIGN KEY (summary_id)
        REFERENCES verification.case_summaries (id),
      CONSTRAINT review_tasks_status_check CHECK (${sqlIn('status', REVIEW_TASK_STATUSES)}),
      CONSTRAINT review_tasks_origin_check CHECK (${sqlIn('origin', REVIEW_ORIGINS)}),
      CONSTRAINT review_tasks_decision_check CHECK (decision IS NULL OR ${sqlIn('decision', REVIEW_DECISIONS)}))`);
    await q.query(
      `CREATE INDEX review_tasks_organization_created_idx ON verification.review_tasks (organization_id, created_at)`,
    );
    await q.query(
      `CREATE INDEX review_tasks_case_idx ON verification.review_tasks (organization_id, case_id)`,
    );
    await q.query(`CREATE UNIQUE INDEX review_tasks_active_case_key ON verification.review_tasks (case_id)
      WHERE status IN ('Open', 'InProgress')`);

    await q.query(`CREATE TABLE verification.review_task_comments (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      organization_id text NOT NULL,
      task_id uuid NOT NULL,
      author text NOT NULL,
      text text NOT NULL,
      created_at timestamptz NOT NULL,
      CONSTRAINT review_task_comments_organization_id_fkey FOREIGN KEY (organization_id)
        REFERENCES verification.organizations (id),
      CONSTRAINT review_task_comments_task_id_fkey FOREIGN KEY (task_id)
        REFERENCES verification.review_tasks (id))`);
    await q.query(
      `CREATE INDEX review_task_comments_task_idx ON verification.review_task_comments (organization_id, task_id, created_at)`,
    );

    await q.query(`CREATE TABLE verification.review_task_status_history (
      id bigserial PRIMARY KEY,
      organization_id text NOT NULL,
      task_id uuid NOT NULL,
      from_status text,
      to_status text NOT NULL,
      assignee text,
      actor text NOT NULL,
      changed_at timestamptz NOT NULL,
      CONSTRAINT review_task_status_history_organization_id_fkey FOREIGN KEY (organization_id)
        REFERENCES verification.organizations (id),
      CONSTRAINT review_task_status_history_task_id_fkey FOREIGN KEY (task_id)
        REFERENCES verification.review_tasks (id))`);
    await q.query(
      `CREATE INDEX review_task_status_history_task_idx ON verification.review_task_status_history (organization_id, task_id, id)`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE verification.review_task_status_history');
    await q.query('DROP TABLE verification.review_task_comments');
    await q.query('DROP TABLE verification.review_tasks');
    await q.query('DROP TABLE verification.case_summaries');
  }
}
