import { Injectable } from '@nestjs/common';
import type { Tx } from '@platform/persistence';
import type { OrganizationId } from '@platform/tenancy';
import { VerificationEvents } from '../events/verification-events';
import type { SummaryFlag } from '../summary/summary-types';
import { ReviewError, reviewError } from './review.errors';
import {
  canMoveTask,
  isReviewTaskStatus,
  type ReviewDecision,
  type ReviewOrigin,
  type ReviewTaskStatus,
} from './review-statuses';
import type { ReviewTask } from './review-task.entity';
import { ReviewTaskHistoryRepository } from './review-task-history.repository';
import { ReviewTasksRepository } from './review-tasks.repository';

/** Who moved a task: an API key's id, or `rule` / `system` for moves no caller made. */
export type ReviewActor = string;

export interface OpenTask {
  caseId: string;
  origin: ReviewOrigin;
  reason: string;
  summaryId: string | null;
  flags: SummaryFlag[];
}

/**
 * The only place a review task's status is written (like CaseMoves for cases): every move is checked
 * against REVIEW_TASK_TRANSITIONS, recorded in the task's history and announced as
 * `manual_review.status_changed`, inside the caller's transaction. Callers lock the case first.
 */
@Injectable()
export class ReviewTaskMoves {
  constructor(
    private readonly tasks: ReviewTasksRepository,
    private readonly history: ReviewTaskHistoryRepository,
    private readonly events: VerificationEvents,
  ) {}

  /** Opens a task (status Open) for a case locked in `tx`. */
  async open(tx: Tx, organizationId: OrganizationId, t: OpenTask, actor: ReviewActor): Promise<ReviewTask> {
    const now = new Date();
    const task = await this.tasks.create(
      organizationId,
      {
        ...t,
        status: 'Open',
        assignee: null,
        decision: null,
        decidedAt: null,
        createdAt: now,
        updatedAt: now,
      },
      tx,
    );
    await this.record(tx, organizationId, task, null, actor, now);
    return task;
  }

  /**
   * Moves a task locked in `tx` to `to` (with its new assignee or decision), or answers
   * REVIEW_TASK_CLOSED (409) when the machine allows no such move.
   */
  async move(
    tx: Tx,
    organizationId: OrganizationId,
    task: ReviewTask,
    to: ReviewTaskStatus,
    actor: ReviewActor,
    change: { assignee?: string; decision?: ReviewDecision } = {},
  ): Promise<ReviewTask> {
    if (!isReviewTaskStatus(task.status) || !canMoveTask(task.status, to))
      throw reviewError(ReviewError.TASK_CLOSED, { taskId: task.id, status: task.status });
    const now = new Date();
    const decided = change.decision !== undefined;
    const set = {
      status: to,
      updatedAt: now,
      ...(change.assignee !== undefined ? { assignee: change.assignee } : {}),
      ...(decided ? { decision: change.decision, decidedAt: now } : {}),
    };
    await this.tasks.change(organizationId, task.id, set, tx);
    const moved: ReviewTask = { ...task, ...set };
    await this.record(tx, organizationId, moved, task.status, actor, now);
    return moved;
  }

  /**
   * Cancels the case's Open/InProgress task, if any: for an area that closes a case (cancel, expiry)
   * inside its transaction, with the case locked. Tasks left active on a closed case are also
   * cancelled by the next write to them (ReviewService).
   */
  async cancelActive(tx: Tx, organizationId: OrganizationId, caseId: string): Promise<void> {
    const active = await this.tasks.activeOfCase(organizationId, caseId, tx);
    if (active) await this.move(tx, organizationId, active, 'Cancelled', 'system');
  }

  private async record(
    tx: Tx,
    organizationId: OrganizationId,
    t: ReviewTask,
    from: string | null,
    actor: ReviewActor,
    at: Date,
  ): Promise<void> {
    await this.history.append(
      organizationId,
      { taskId: t.id, fromStatus: from, toStatus: t.status, assignee: t.assignee, actor, changedAt: at },
      tx,
    );
    await this.events.emit(tx, organizationId, 'manual_review.status_changed', {
      caseId: t.caseId,
      taskId: t.id,
      fromStatus: from,
      toStatus: t.status,
      assignee: t.assignee,
      changedAt: at.toISOString(),
    });
  }
}
