import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import type { Language } from '@platform/i18n';
import type { OrganizationId } from '@platform/tenancy';
import { IdempotentOperations, type IdempotentRequest } from '@platform/idempotency';
import { TenantData } from '../../tenancy/tenant-data';
import { LoanAccruals } from '../accruals/loan-accruals.service';
import { LoanEvents } from '../events/loan-events';
import { LedgerRepository } from '../ledger/ledger.repository';
import { advancePosition, LoanBook, positionRow, type LoanPosition } from '../ledger/loan-book';
import type { LedgerTransaction } from '../ledger/ledger-transaction.entity';
import { todayUtc } from '../loan-dates';
import { LoanMoves } from '../loan-moves';
import { LoansRepository } from '../loans.repository';
import { InstalmentsRepository } from '../schedule/instalments.repository';
import { ScheduleVersionsRepository } from '../schedule/schedule-versions.repository';
import type { PositionRow } from '../payments/payment-plan';
import type { Booked, MoneyOperation, MoneyPlan, OperationContext } from './money-operation';

/**
 * The one way a money operation runs (docs/lending/loans.md, "Money operations"). Every operation
 * (disbursement, payment, early repayment, reversal, write-off, restructuring, payment holiday) goes
 * through the same steps in one tenant transaction:
 *
 * 1. idempotency: the Idempotency-Key is held; a stored answer is replayed and nothing below runs;
 * 2. the loan's row is locked (404 for an unknown or another organization's loan) and the operation's
 *    status rule checked (its admission, then its own database checks such as the customer's standing);
 * 3. the loan's accruals are brought up to the operation's day (accrue first, then operate);
 * 4. the position is read and the operation's plan computed from it (pure);
 * 5. the plan is booked: the ledger transaction, the schedule change and its version, new terms, the
 *    status move;
 * 6. the events are written (outbox, accounting records, webhooks) and the answer is stored with the key.
 *
 * A refusal at any step throws a coded error and the transaction rolls back: nothing is half-written.
 * `preview` runs steps 2-4 inside a savepoint it rolls back, and books nothing.
 */
@Injectable()
export class MoneyPipeline {
  constructor(
    private readonly data: TenantData,
    private readonly idempotency: IdempotentOperations,
    private readonly moves: LoanMoves,
    private readonly accruals: LoanAccruals,
    private readonly book: LoanBook,
    private readonly ledger: LedgerRepository,
    private readonly instalments: InstalmentsRepository,
    private readonly versions: ScheduleVersionsRepository,
    private readonly loans: LoansRepository,
    private readonly events: LoanEvents,
  ) {}

  run<I, P extends MoneyPlan, R>(
    organizationId: OrganizationId,
    keyId: string,
    request: IdempotentRequest,
    lang: Language,
    op: MoneyOperation<I, P, R>,
  ): Promise<R> {
    return this.idempotency.run(organizationId, request, async (tx, store) => {
      const ctx = await this.admit(organizationId, keyId, request.key, lang, tx, op);
      const before = await this.prepare(ctx, op);
      const plan = op.plan(ctx, before.position, before.input);
      const booked = await this.bookPlan(ctx, plan, before.position);
      // The answer is stored by the events' statement (one round trip for both).
      const answer = op.answer(booked);
      const stored = store(answer);
      if (await this.events.announce(tx, organizationId, op.events(booked), ctx.today, [stored.sql]))
        stored.written();
      return answer;
    });
  }

  /** Steps 2-4 of `run` in a savepoint rolled back at the end; `show` turns the plan into the answer. */
  preview<I, P extends MoneyPlan, R>(
    organizationId: OrganizationId,
    lang: Language,
    op: MoneyOperation<I, P, unknown>,
    show: (ctx: OperationContext, before: LoanPosition, plan: P) => R,
  ): Promise<R> {
    return this.data.run(organizationId, async (tx) => {
      const ctx = await this.admit(organizationId, null, null, lang, tx, op);
      // The accruals the operation would post first are posted here too, and rolled back with the savepoint.
      return this.ledger.dryRun(tx, async () => {
        const before = await this.prepare(ctx, op);
        return show(ctx, before.position, op.plan(ctx, before.position, before.input));
      });
    });
  }

  private async admit<I, P extends MoneyPlan, R>(
    organizationId: OrganizationId,
    keyId: string | null,
    idempotencyKey: string | null,
    lang: Language,
    tx: OperationContext['tx'],
    op: MoneyOperation<I, P, R>,
  ): Promise<OperationContext> {
    const loan = await this.moves.lockOrFail(organizationId, op.loanId, tx);
    const a = op.admission;
    if (a.kind === 'move') this.moves.check(loan, a.to, a.action, lang);
    else if (a.kind === 'active') this.moves.requireActive(loan, lang);
    const ctx: OperationContext = {
      organizationId,
      keyId,
      idempotencyKey,
      lang,
      tx,
      loan,
      today: todayUtc(),
    };
    if (op.admit) await op.admit(ctx);
    return ctx;
  }

  private async prepare<I, P extends MoneyPlan, R>(ctx: OperationContext, op: MoneyOperation<I, P, R>) {
    // The position with the accrual state in one read; read again only when the catch-up posted.
    let position = await this.book.position(ctx.organizationId, ctx.loan.id, ctx.tx);
    const asOf = op.catchUpTo(ctx);
    if (asOf !== null) {
      const done = await this.accruals.catchUp(ctx.organizationId, ctx.loan, asOf, ctx.tx, position);
      if (done.transactions > 0) position = await this.book.position(ctx.organizationId, ctx.loan.id, ctx.tx);
    }
    const input = await op.gather(ctx, position);
    return { position, input };
  }

  private async bookPlan<P extends MoneyPlan>(
    ctx: OperationContext,
    plan: P,
    before: LoanPosition,
  ): Promise<Booked<P>> {
    const { organizationId, loan, tx } = ctx;
    let transaction: LedgerTransaction | null = null;
    if (plan.posting) {
      const { lines, ...t } = plan.posting;
      transaction = await this.ledger.post(
        organizationId,
        { loanId: loan.id, ...t, idempotencyKey: ctx.idempotencyKey, keyId: ctx.keyId },
        lines,
        tx,
      );
    }
    let version: number | null = null;
    let added: PositionRow[] = [];
    const s = plan.schedule;
    if (s) {
      // A schedule change belongs to the transaction that makes it.
      if (!transaction) throw new Error('a schedule change needs a ledger transaction');
      if (s.kind === 'restore')
        await this.instalments.undoChange(organizationId, loan.id, s.changedBy, transaction.id, tx);
      else {
        if (s.kind === 'replace')
          await this.instalments.supersede(organizationId, loan.id, s.superseded, transaction.id, tx);
        const rows = s.rows.map((r) => ({ ...r, id: randomUUID() }));
        await this.instalments.add(organizationId, loan.id, rows, transaction.id, tx);
        added = rows.map((r) => positionRow(r));
      }
      version = await this.versions.record(organizationId, loan.id, transaction.id, tx);
    }
    if (plan.terms && Object.keys(plan.terms).length) {
      await this.loans.change(organizationId, loan.id, plan.terms, tx);
      Object.assign(loan, plan.terms);
    }
    if (plan.move)
      await this.moves.move(
        organizationId,
        loan,
        plan.move.to,
        plan.move.action,
        ctx.lang,
        tx,
        plan.move.also,
      );
    // The position after is the one before with the lines added and the schedule's rows swapped: no read
    // back, except for a restored schedule (its rows come back from the table).
    let after = before;
    if (s?.kind === 'restore') after = await this.book.position(organizationId, loan.id, tx);
    else if (plan.posting)
      after = advancePosition(
        before,
        plan.posting.lines,
        plan.posting.valueDate,
        s ? { superseded: new Set(s.kind === 'replace' ? s.superseded : []), added } : undefined,
      );
    return { ctx, plan, transaction, before, after, version };
  }
}
