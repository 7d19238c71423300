import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { TenantScopedRepository, type Tx } from '@platform/persistence';
import type { OrganizationId } from '@platform/tenancy';
import { ACTIVE_REVIEW_STATUSES } from './review-statuses';
import { ReviewTask } from './review-task.entity';

export interface ReviewTaskFilter {
  status?: string;
  assignee?: string;
  caseId?: string;
}

export type ReviewTaskChange = Partial<
  Pick<ReviewTask, 'status' | 'assignee' | 'decision' | 'decidedAt' | 'updatedAt'>
>;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The review tasks (docs/verification/manual-review.md). Status moves go through ReviewTaskMoves. */
@Injectable()
export class ReviewTasksRepository extends TenantScopedRepository<ReviewTask, 'organizationId'> {
  constructor(@InjectDataSource() ds: DataSource) {
    super(ds, ReviewTask, 'organizationId');
  }

  get(organizationId: OrganizationId, id: string, tx?: Tx): Promise<ReviewTask | null> {
    if (!UUID.test(id)) return Promise.resolve(null);
    return this.findOne(organizationId, { id }, tx);
  }

  /** The task, locked until `tx` ends (lock its case first: CaseMoves.lock). */
  lock(organizationId: OrganizationId, id: string, tx: Tx): Promise<ReviewTask | null> {
    return this.select(
      organizationId,
      't',
      (q) => q.andWhere('t.id = :id', { id }).setLock('pessimistic_write').getOne(),
      tx,
    );
  }

  /** The case's Open or InProgress task (at most one: review_tasks_active_case_key). */
  activeOfCase(organizationId: OrganizationId, caseId: string, tx: Tx): Promise<ReviewTask | null> {
    return this.select(
      organizationId,
      't',
      (q) =>
        q
          .andWhere('t.case_id = :caseId', { caseId })
          .andWhere('t.status IN (:...active)', { active: ACTIVE_REVIEW_STATUSES })
          .getOne(),
      tx,
    );
  }

  async create(
    organizationId: OrganizationId,
    row: Omit<ReviewTask, 'organizationId' | 'id'>,
    tx: Tx,
  ): Promise<ReviewTask> {
    const [created] = await this.insertReturning(organizationId, [row], tx);
    return { ...row, id: created.id, organizationId };
  }

  async change(organizationId: OrganizationId, id: string, set: ReviewTaskChange, tx: Tx): Promise<void> {
    await this.update(organizationId, { id }, set, tx);
  }

  /** Newest first; the id breaks ties so pages never overlap. */
  pageOf(
    organizationId: OrganizationId,
    filter: ReviewTaskFilter,
    offset: number,
    limit: number,
  ): Promise<[ReviewTask[], number]> {
    return this.select(organizationId, 't', (q) => {
      if (filter.status !== undefined) q.andWhere('t.status = :status', { status: filter.status });
      if (filter.assignee !== undefined) q.andWhere('t.assignee = :assignee', { assignee: filter.assignee });
      if (filter.caseId !== undefined) q.andWhere('t.case_id = :caseId', { caseId: filter.caseId });
      return q
        .orderBy('t.created_at', 'DESC')
        .addOrderBy('t.id', 'ASC')
        .skip(offset)
        .take(limit)
        .getManyAndCount();
    });
  }
}
