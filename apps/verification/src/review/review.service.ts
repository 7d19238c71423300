import { Injectable } from '@nestjs/common';
import type { ListValue } from '@platform/envelope';
import { Transactions, type Tx } from '@platform/persistence';
import type { OrganizationId } from '@platform/tenancy';
import { CaseMoves } from '../cases/case-moves.service';
import { CASE_TRANSITIONS, isCaseStatus } from '../cases/case-statuses';
import { CasesRepository } from '../cases/cases.repository';
import type { VerificationCase } from '../cases/verification-case.entity';
import type {
  AssignReviewTaskRequest,
  CommentReviewTaskRequest,
  CreateReviewTaskRequest,
  DecideReviewTaskRequest,
  ListReviewTasksRequest,
} from './dto/review-task.request';
import { ReviewError, reviewError } from './review.errors';
import { DECISION_OUTCOME, isActiveReviewStatus } from './review-statuses';
import type { ReviewTaskComment } from './review-task-comment.entity';
import { ReviewTaskCommentsRepository } from './review-task-comments.repository';
import type { ReviewTask } from './review-task.entity';
import { ReviewTaskHistoryRepository } from './review-task-history.repository';
import { ReviewTaskMoves, type ReviewActor } from './review-task-moves.service';
import { ReviewTasksRepository } from './review-tasks.repository';
import type { SummaryFlag } from '../summary/summary-types';

export interface ReviewTaskView {
  id: string;
  caseId: string;
  status: string;
  origin: string;
  reason: string;
  summaryId: string | null;
  flags: SummaryFlag[];
  assignee: string | null;
  decision: string | null;
  decidedAt: string | null;
  createdAt: string;
  updatedAt: string;
}

export interface ReviewTaskCommentView {
  id: string;
  author: string;
  text: string;
  createdAt: string;
}

export interface ReviewTaskDetailView extends ReviewTaskView {
  caseStatus: string;
  comments: ReviewTaskCommentView[];
  history: {
    fromStatus: string | null;
    toStatus: string;
    assignee: string | null;
    actor: string;
    changedAt: string;
  }[];
}

const isFinal = (status: string) => isCaseStatus(status) && CASE_TRANSITIONS[status].length === 0;

export const taskView = (t: ReviewTask): ReviewTaskView => ({
  id: t.id,
  caseId: t.caseId,
  status: t.status,
  origin: t.origin,
  reason: t.reason,
  summaryId: t.summaryId,
  flags: t.flags ?? [],
  assignee: t.assignee,
  decision: t.decision,
  decidedAt: t.decidedAt?.toISOString() ?? null,
  createdAt: t.createdAt.toISOString(),
  updatedAt: t.updatedAt.toISOString(),
});

const commentView = (c: ReviewTaskComment): ReviewTaskCommentView => ({
  id: c.id,
  author: c.author,
  text: c.text,
  createdAt: c.createdAt.toISOString(),
});

type Outcome<T> = { value: T } | { closedCase: VerificationCase };

/**
 * Manual review (docs/verification/manual-review.md): tasks opened by hand (or by the summary's rules,
 * SummaryService), assigned, commented and decided. Every write locks the case, then the task, so a
 * decision and a new summary of the same case never cross.
 */
@Injectable()
export class ReviewService {
  constructor(
    private readonly transactions: Transactions,
    private readonly caseMoves: CaseMoves,
    private readonly cases: CasesRepository,
    private readonly tasks: ReviewTasksRepository,
    private readonly comments: ReviewTaskCommentsRepository,
    private readonly history: ReviewTaskHistoryRepository,
    private readonly moves: ReviewTaskMoves,
  ) {}

  /**
   * Opens a task by hand. The case moves to ManualReview (from DocumentsReceived through Checking);
   * one active task per case.
   */
  async create(
    organizationId: OrganizationId,
    caseId: string,
    dto: CreateReviewTaskRequest,
    actor: ReviewActor,
  ): Promise<ReviewTaskDetailView> {
    const task = await this.transactions.run(async (tx) => {
      let c = await this.caseMoves.lock(tx, organizationId, caseId);
      if (isFinal(c.status)) throw reviewError(ReviewError.CASE_FINAL, { caseId, status: c.status });
      if (c.status === 'AwaitingApplicant')
        throw reviewError(ReviewError.CASE_AWAITING_APPLICANT, { caseId });
      const active = await this.tasks.activeOfCase(organizationId, caseId, tx);
      if (active) throw reviewError(ReviewError.TASK_ALREADY_OPEN, { caseId, taskId: active.id });
      if (c.status === 'DocumentsReceived')
        c = await this.caseMoves.ensure(tx, organizationId, c, 'Checking');
      await this.caseMoves.ensure(tx, organizationId, c, 'ManualReview');
      return this.moves.open(
        tx,
        organizationId,
        { caseId, origin: 'manual', reason: dto.reason, summaryId: null, flags: [] },
        actor,
      );
    });
    return this.detail(organizationId, task);
  }

  async list(organizationId: OrganizationId, q: ListReviewTasksRequest): Promise<ListValue<ReviewTaskView>> {
    const [rows, total] = await this.tasks.pageOf(
      organizationId,
      { status: q.status, assignee: q.assignee, caseId: q.caseId },
      q.offset ?? 0,
      q.limit ?? 20,
    );
    return { items: rows.map(taskView), total };
  }

  async get(organizationId: OrganizationId, taskId: string): Promise<ReviewTaskDetailView> {
    const task = await this.tasks.get(organizationId, taskId);
    if (!task) throw reviewError(ReviewError.TASK_NOT_FOUND, { taskId });
    return this.detail(organizationId, task);
  }

  /** Open -> InProgress with the assignee; on an InProgress task, hands it to another reviewer. */
  async assign(
    organizationId: OrganizationId,
    taskId: string,
    dto: AssignReviewTaskRequest,
    actor: ReviewActor,
  ): Promise<ReviewTaskDetailView> {
    const task = await this.write(organizationId, taskId, (tx, t) =>
      this.moves.move(tx, organizationId, t, 'InProgress', actor, { assignee: dto.assignee }),
    );
    return this.detail(organizationId, task);
  }

  async comment(
    organizationId: OrganizationId,
    taskId: string,
    dto: CommentReviewTaskRequest,
    actor: ReviewActor,
  ): Promise<ReviewTaskCommentView> {
    const c = await this.write(organizationId, taskId, (tx, t) =>
      this.comments.add(
        organizationId,
        { taskId: t.id, author: actor, text: dto.text, createdAt: new Date() },
        tx,
      ),
    );
    return commentView(c);
  }

  /** Approved/Declined, and the case with it (ManualReview -> Approved/Declined), in one transaction. */
  async decide(
    organizationId: OrganizationId,
    taskId: string,
    dto: DecideReviewTaskRequest,
    actor: ReviewActor,
  ): Promise<ReviewTaskDetailView> {
    const outcome = DECISION_OUTCOME[dto.decision];
    const task = await this.write(organizationId, taskId, async (tx, t, c) => {
      if (dto.comment !== undefined)
        await this.comments.add(
          organizationId,
          { taskId: t.id, author: actor, text: dto.comment, createdAt: new Date() },
          tx,
        );
      const decided = await this.moves.move(tx, organizationId, t, outcome.task, actor, {
        decision: dto.decision,
      });
      if (c.status === 'DocumentsReceived')
        c = await this.caseMoves.ensure(tx, organizationId, c, 'Checking');
      await this.caseMoves.move(tx, organizationId, c, outcome.case);
      return decided;
    });
    return this.detail(organizationId, task);
  }

  /**
   * Runs `work` on an active task with its case and the task locked. A task left active on a case
   * that was closed meanwhile (cancelled, expired) is cancelled here, and the call answers
   * REVIEW_CASE_FINAL after that commits.
   */
  private async write<T>(
    organizationId: OrganizationId,
    taskId: string,
    work: (tx: Tx, task: ReviewTask, c: VerificationCase) => Promise<T>,
  ): Promise<T> {
    const found = await this.tasks.get(organizationId, taskId);
    if (!found) throw reviewError(ReviewError.TASK_NOT_FOUND, { taskId });
    const r = await this.transactions.run(async (tx): Promise<Outcome<T>> => {
      const c = await this.caseMoves.lock(tx, organizationId, found.caseId);
      const t = await this.tasks.lock(organizationId, taskId, tx);
      if (!t) throw reviewError(ReviewError.TASK_NOT_FOUND, { taskId });
      if (!isActiveReviewStatus(t.status))
        throw reviewError(ReviewError.TASK_CLOSED, { taskId, status: t.status });
      if (isFinal(c.status)) {
        await this.moves.move(tx, organizationId, t, 'Cancelled', 'system');
        return { closedCase: c };
      }
      return { value: await work(tx, t, c) };
    });
    if ('closedCase' in r)
      throw reviewError(ReviewError.CASE_FINAL, { caseId: r.closedCase.id, status: r.closedCase.status });
    return r.value;
  }

  private async detail(organizationId: OrganizationId, task: ReviewTask): Promise<ReviewTaskDetailView> {
    const [c, comments, history] = await Promise.all([
      this.cases.get(organizationId, task.caseId),
      this.comments.of(organizationId, task.id),
      this.history.of(organizationId, task.id),
    ]);
    return {
      ...taskView(task),
      caseStatus: c?.status ?? 'unknown',
      comments: comments.map(commentView),
      history: history.map((h) => ({
        fromStatus: h.fromStatus,
        toStatus: h.toStatus,
        assignee: h.assignee,
        actor: h.actor,
        changedAt: h.changedAt.toISOString(),
      })),
    };
  }
}
