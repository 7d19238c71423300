import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { TenantScopedRepository, type Tx } from '@platform/persistence';
import type { OrganizationId } from '@platform/tenancy';
import { ReviewTaskStatusChange } from './review-task-status-change.entity';

/** A review task's append-only history: rows are added in the transaction that moves the task. */
@Injectable()
export class ReviewTaskHistoryRepository extends TenantScopedRepository<
  ReviewTaskStatusChange,
  'organizationId'
> {
  constructor(@InjectDataSource() ds: DataSource) {
    super(ds, ReviewTaskStatusChange, 'organizationId');
  }

  async append(
    organizationId: OrganizationId,
    row: Omit<ReviewTaskStatusChange, 'organizationId' | 'id'>,
    tx: Tx,
  ): Promise<void> {
    await this.insert(organizationId, [row], tx);
  }

  /** Oldest first; the serial id orders moves within one instant. */
  of(organizationId: OrganizationId, taskId: string): Promise<ReviewTaskStatusChange[]> {
    return this.find(organizationId, { taskId }, { id: 'ASC' });
  }
}
