import { Column, Entity, ForeignKey, Index, PrimaryGeneratedColumn } from 'typeorm';
import { Organization, type OrganizationId } from '@platform/tenancy';
import { ReviewTask } from './review-task.entity';

/** One move of a review task (status and/or assignee). Append-only. */
@Entity({ name: 'review_task_status_history' })
@Index('review_task_status_history_task_idx', ['organizationId', 'taskId', 'id'])
export class ReviewTaskStatusChange {
  @PrimaryGeneratedColumn({ type: 'bigint' }) id: string;
  @Column({ name: 'organization_id', type: 'text' })
  @ForeignKey(() => Organization, { name: 'review_task_status_history_organization_id_fkey' })
  organizationId: OrganizationId;
  @Column({ name: 'task_id', type: 'uuid' })
  @ForeignKey(() => ReviewTask, { name: 'review_task_status_history_task_id_fkey' })
  taskId: string;
  /** Null on the first entry: the task's creation. */
  @Column({ name: 'from_status', type: 'text', nullable: true }) fromStatus: string | null;
  @Column({ name: 'to_status', type: 'text' }) toStatus: string;
  @Column({ type: 'text', nullable: true }) assignee: string | null;
  /** Who moved it: an API key id, or `rule` / `system` for a move no caller made. */
  @Column({ type: 'text' }) actor: string;
  @Column({ name: 'changed_at', type: 'timestamptz' }) changedAt: Date;
}
