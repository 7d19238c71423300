import { Check, Column, Entity, ForeignKey, Index, PrimaryGeneratedColumn } from 'typeorm';
import { Organization, type OrganizationId } from '@platform/tenancy';
import { VerificationCase } from '../cases/verification-case.entity';
import { CaseSummary } from '../summary/case-summary.entity';
import { sqlIn, type SummaryFlag } from '../summary/summary-types';
import {
  REVIEW_DECISIONS,
  REVIEW_ORIGINS,
  REVIEW_TASK_STATUSES,
  type ReviewDecision,
  type ReviewOrigin,
  type ReviewTaskStatus,
} from './review-statuses';

/**
 * A manual-review task of a case (docs/verification/manual-review.md). At most one task of a case is
 * active (Open or InProgress): the partial unique index keeps a rule and a person from opening two.
 */
@Entity({ name: 'review_tasks' })
@Index('review_tasks_organization_created_idx', ['organizationId', 'createdAt'])
@Index('review_tasks_case_idx', ['organizationId', 'caseId'])
@Index('review_tasks_active_case_key', ['caseId'], {
  unique: true,
  where: "status IN ('Open', 'InProgress')",
})
@Check('review_tasks_status_check', sqlIn('status', REVIEW_TASK_STATUSES))
@Check('review_tasks_origin_check', sqlIn('origin', REVIEW_ORIGINS))
@Check('review_tasks_decision_check', `decision IS NULL OR ${sqlIn('decision', REVIEW_DECISIONS)}`)
export class ReviewTask {
  @PrimaryGeneratedColumn('uuid') id: string;
  @Column({ name: 'organization_id', type: 'text' })
  @ForeignKey(() => Organization, { name: 'review_tasks_organization_id_fkey' })
  organizationId: OrganizationId;
  @Column({ name: 'case_id', type: 'uuid' })
  @ForeignKey(() => VerificationCase, { name: 'review_tasks_case_id_fkey' })
  caseId: string;
  @Column({ type: 'text' }) status: ReviewTaskStatus;
  /** Why the task exists: the flags' codes (rule) or the creator's text (manual). */
  @Column({ type: 'text' }) reason: string;
  @Column({ type: 'text' }) origin: ReviewOrigin;
  /** The summary whose flags opened it (origin rule); null for a task opened by hand. */
  @Column({ name: 'summary_id', type: 'uuid', nullable: true })
  @ForeignKey(() => CaseSummary, { name: 'review_tasks_summary_id_fkey' })
  summaryId: string | null;
  /** The flags it cites (a copy: the summary may be generated again). */
  @Column({ type: 'jsonb' }) flags: SummaryFlag[];
  @Column({ type: 'text', nullable: true }) assignee: string | null;
  @Column({ type: 'text', nullable: true }) decision: ReviewDecision | null;
  @Column({ name: 'decided_at', type: 'timestamptz', nullable: true }) decidedAt: Date | null;
  @Column({ name: 'created_at', type: 'timestamptz' }) createdAt: Date;
  @Column({ name: 'updated_at', type: 'timestamptz' }) updatedAt: Date;
}
