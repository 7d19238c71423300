import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { TenantScopedRepository, type Tx } from '@platform/persistence';
import type { OrganizationId } from '@platform/tenancy';
import { ReviewTaskComment } from './review-task-comment.entity';

/** Comments on review tasks: append-only (no update or delete here). */
@Injectable()
export class ReviewTaskCommentsRepository extends TenantScopedRepository<
  ReviewTaskComment,
  'organizationId'
> {
  constructor(@InjectDataSource() ds: DataSource) {
    super(ds, ReviewTaskComment, 'organizationId');
  }

  async add(
    organizationId: OrganizationId,
    row: Omit<ReviewTaskComment, 'organizationId' | 'id'>,
    tx: Tx,
  ): Promise<ReviewTaskComment> {
    const [created] = await this.insertReturning(organizationId, [row], tx);
    return { ...row, id: created.id, organizationId };
  }

  /** Oldest first. */
  of(organizationId: OrganizationId, taskId: string): Promise<ReviewTaskComment[]> {
    return this.find(organizationId, { taskId }, { createdAt: 'ASC', id: 'ASC' });
  }
}
