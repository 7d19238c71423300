import { Column, Entity, ForeignKey, Index, PrimaryGeneratedColumn } from 'typeorm';
import { Organization, type OrganizationId } from '@platform/tenancy';
import { ReviewTask } from './review-task.entity';

/** A comment on a review task. Append-only. */
@Entity({ name: 'review_task_comments' })
@Index('review_task_comments_task_idx', ['organizationId', 'taskId', 'createdAt'])
export class ReviewTaskComment {
  @PrimaryGeneratedColumn('uuid') id: string;
  @Column({ name: 'organization_id', type: 'text' })
  @ForeignKey(() => Organization, { name: 'review_task_comments_organization_id_fkey' })
  organizationId: OrganizationId;
  @Column({ name: 'task_id', type: 'uuid' })
  @ForeignKey(() => ReviewTask, { name: 'review_task_comments_task_id_fkey' })
  taskId: string;
  /** The API key that wrote it (its key id). */
  @Column({ type: 'text' }) author: string;
  @Column({ type: 'text' }) text: string;
  @Column({ name: 'created_at', type: 'timestamptz' }) createdAt: Date;
}
