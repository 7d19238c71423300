import { Injectable } from '@nestjs/common';
import type { ListValue } from '@platform/envelope';
import { Transactions, type Tx } from '@platform/persistence';
import type { OrganizationId } from '@platform/tenancy';
import { CaseMoves } from '../cases/case-moves.service';
import { CASE_TRANSITIONS, isCaseStatus } from '../cases/case-statuses';
import { CasesError, casesError } from '../cases/cases.errors';
import { CasesRepository } from '../cases/cases.repository';
import type { VerificationCase } from '../cases/verification-case.entity';
import { CheckStepsRepository } from '../checks/check-steps.repository';
import { DocumentsRepository } from '../documents/documents.repository';
import { VerificationEvents } from '../events/verification-events';
import { ReviewTaskMoves } from '../review/review-task-moves.service';
import { ReviewTasksRepository } from '../review/review-tasks.repository';
import { SummariesRepository } from './summaries.repository';
import { reviewFlags, summarize, type SummaryOutcome } from './summary-rules';
import { SummaryError, summaryError } from './summary.errors';
import type { SummaryView } from './summary-types';

/** The answer to generation: the stored summary, and what it did to the case. */
export interface GeneratedSummaryView extends SummaryView {
  caseStatus: string;
  /** The Open/InProgress review task of the case after generation, if any (opened now or before). */
  reviewTaskId: string | null;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const isFinal = (status: string) => isCaseStatus(status) && CASE_TRANSITIONS[status].length === 0;

/**
 * The summary (docs/verification/summary.md): generation runs the pure rules over the stored check
 * steps, stores a new version, announces `summary.generated` and moves the case, all in one
 * transaction under the case's lock.
 */
@Injectable()
export class SummaryService {
  constructor(
    private readonly transactions: Transactions,
    private readonly moves: CaseMoves,
    private readonly cases: CasesRepository,
    private readonly steps: CheckStepsRepository,
    private readonly documents: DocumentsRepository,
    private readonly summaries: SummariesRepository,
    private readonly events: VerificationEvents,
    private readonly tasks: ReviewTasksRepository,
    private readonly taskMoves: ReviewTaskMoves,
  ) {}

  generate(organizationId: OrganizationId, caseId: string): Promise<GeneratedSummaryView> {
    return this.transactions.run(async (tx) => {
      let c = await this.moves.lock(tx, organizationId, caseId);
      if (isFinal(c.status)) throw summaryError(SummaryError.CASE_FINAL, { caseId, status: c.status });
      if (c.status === 'AwaitingApplicant')
        throw summaryError(SummaryError.CASE_AWAITING_APPLICANT, { caseId });
      const steps = await this.steps.ofCase(organizationId, caseId, tx);
      const documents = await this.documents.ofCase(organizationId, caseId);
      const outcome = summarize(steps, documents);
      const now = new Date();
      const summary = await this.summaries.append(
        organizationId,
        { caseId, generatedAt: now, ...outcome },
        tx,
      );
      await this.events.emit(tx, organizationId, 'summary.generated', {
        caseId,
        summaryId: summary.id,
        recommendation: summary.recommendation,
        generatedAt: summary.generatedAt,
      });
      const moved = await this.follow(tx, organizationId, c, summary, outcome);
      c = moved.c;
      return { ...summary, caseStatus: c.status, reviewTaskId: moved.taskId };
    });
  }

  /**
   * Moves the case as the recommendation says (docs/verification/summary.md, "What generation does to
   * the case"). A case already under a person's review (an Open or InProgress task) stays with that
   * person: the new summary is stored, the case is not moved.
   */
  private async follow(
    tx: Tx,
    organizationId: OrganizationId,
    c: VerificationCase,
    summary: SummaryView,
    outcome: SummaryOutcome,
  ): Promise<{ c: VerificationCase; taskId: string | null }> {
    if (c.status === 'DocumentsReceived') c = await this.moves.ensure(tx, organizationId, c, 'Checking');
    const active = await this.tasks.activeOfCase(organizationId, c.id, tx);
    if (active) return { c, taskId: active.id };
    if (outcome.recommendation === 'approve')
      return { c: await this.moves.move(tx, organizationId, c, 'Approved'), taskId: null };
    if (outcome.recommendation === 'decline')
      return { c: await this.moves.move(tx, organizationId, c, 'Declined'), taskId: null };
    c = await this.moves.ensure(tx, organizationId, c, 'ManualReview');
    const flags = reviewFlags(outcome.flags);
    const task = await this.taskMoves.open(
      tx,
      organizationId,
      {
        caseId: c.id,
        origin: 'rule',
        reason: `Summary v${summary.version}: ${flags.map((f) => f.code).join(', ')}`,
        summaryId: summary.id,
        flags,
      },
      'rule',
    );
    return { c, taskId: task.id };
  }

  async latest(organizationId: OrganizationId, caseId: string): Promise<SummaryView> {
    await this.found(organizationId, caseId);
    const s = await this.summaries.latest(organizationId, caseId);
    if (!s) throw summaryError(SummaryError.NOT_FOUND, { caseId });
    return s;
  }

  async versions(organizationId: OrganizationId, caseId: string): Promise<ListValue<SummaryView>> {
    await this.found(organizationId, caseId);
    const items = await this.summaries.versions(organizationId, caseId);
    return { items, total: items.length };
  }

  private async found(organizationId: OrganizationId, id: string): Promise<VerificationCase> {
    const c = UUID.test(id) ? await this.cases.get(organizationId, id) : null;
    if (!c) throw casesError(CasesError.NOT_FOUND, { caseId: id });
    return c;
  }
}
