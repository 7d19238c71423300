import { Injectable } from '@nestjs/common';
import type { Language } from '@platform/i18n';
import type { Tx } from '@platform/persistence';
import type { OrganizationId } from '@platform/tenancy';
import type { IdempotentRequest } from '@platform/idempotency';
import type { ReversePaymentRequest } from '../dto/payment.request';
import type { ReversalResponse } from '../dto/payment.response';
import type { ReversalReason } from '../events/loan-facts';
import { balancesOf } from '../ledger/balances';
import { JOB_KINDS } from '../ledger/chart-of-accounts';
import type { LedgerTransaction } from '../ledger/ledger-transaction.entity';
import { LedgerRepository } from '../ledger/ledger.repository';
import { Posting, type PostingLine } from '../ledger/posting';
import { daysBetween } from '../loan-dates';
import type { Loan } from '../loan.entity';
import { LoanTexts } from '../loan-texts';
import { LoanViews } from '../loan-views';
import { LoanError, loanError } from '../loans.errors';
import { DEBT_COMPONENTS, type DebtComponent } from '../math';
import { InstalmentsRepository } from '../schedule/instalments.repository';
import { withLines } from './payment-booking';
import {
  postedOf,
  type MoneyOperation,
  type MoneyPlan,
  type OperationContext,
} from '../operations/money-operation';
import { MoneyPipeline } from '../operations/money-pipeline';

const zeroParts = () =>
  Object.fromEntries(DEBT_COMPONENTS.map((c) => [c, 0])) as Record<DebtComponent, number>;

/** What a reversal reads: the payment, any reversal of it, its lines, and what stands on it. */
interface ReversalInput {
  original: LedgerTransaction | null;
  reversal: LedgerTransaction | null;
  lines: PostingLine[];
  blocking: LedgerTransaction | null;
}

interface ReversalPlan extends MoneyPlan {
  original: LedgerTransaction;
  d: PaymentDetails;
  mirrored: PostingLine[];
  reclassified: number;
  reopened: boolean;
}

interface PaymentDetails {
  parts?: Record<DebtComponent, number>;
  debts?: Record<DebtComponent, number>;
  order?: DebtComponent[];
  overpayment?: number;
  rule?: string;
  scheduleChanged?: boolean;
}

/**
 * ReversePayment (docs/lending/loans.md, "Reversal"), through the money pipeline: posts the mirror of a
 * payment's lines (every debit a credit and back), so every balance derived from the ledger is what it
 * was before the payment; a schedule the payment regenerated is replaced by the one it had replaced; a
 * loan the payment closed is active again. Only the loan's latest transaction is reversed: a later one
 * was computed on the balances this payment left.
 */
@Injectable()
export class ReversalsService {
  constructor(
    private readonly pipeline: MoneyPipeline,
    private readonly ledger: LedgerRepository,
    private readonly instalments: InstalmentsRepository,
    private readonly views: LoanViews,
    private readonly texts: LoanTexts,
  ) {}

  reverse(
    organizationId: OrganizationId,
    keyId: string,
    request: IdempotentRequest,
    dto: ReversePaymentRequest,
    lang: Language,
  ): Promise<ReversalResponse> {
    return this.pipeline.run(organizationId, keyId, request, lang, this.operation(dto));
  }

  private operation(
    dto: ReversePaymentRequest,
  ): MoneyOperation<ReversalInput, ReversalPlan, ReversalResponse> {
    const reasonCode = (dto.reasonCode ?? 'booked-in-error') as ReversalReason;
    return {
      loanId: dto.loanId,
      // Whatever the loan's status: what decides is the payment and what stands on it.
      admission: { kind: 'any' },
      catchUpTo: () => null,
      gather: (ctx) => this.gather(ctx, dto.transactionId),
      plan: (ctx, before, input) => {
        const { original } = input;
        if (!original) throw loanError(LoanError.TRANSACTION_NOT_FOUND, { transactionId: dto.transactionId });
        if (original.kind !== 'repayment')
          throw loanError(
            LoanError.TRANSACTION_NOT_REVERSIBLE,
            { kindName: this.texts.name('transactionKinds', original.kind, ctx.lang) },
            { kind: original.kind },
          );
        if (input.reversal)
          throw loanError(LoanError.TRANSACTION_ALREADY_REVERSED, {}, { reversedBy: input.reversal.id });
        if (input.blocking)
          throw loanError(LoanError.TRANSACTION_NOT_LATEST, {}, { latestTransactionId: input.blocking.id });
        const d = original.details as PaymentDetails;
        const mirrored = Posting.mirror(input.lines).lines();
        // Accruals after the payment may have earned interest it had paid ahead: what its mirror would take
        // off interest received in advance beyond its balance is interest receivable again.
        const after = balancesOf(withLines(before.totals, mirrored));
        const reclassified = Math.max(0, -after.interest_advance);
        const lines = reclassified
          ? [
              ...mirrored,
              ...new Posting()
                .debit('interest_receivable', reclassified)
                .credit('interest_advance', reclassified)
                .lines(),
            ]
          : mirrored;
        const reopened = ctx.loan.status === 'closed';
        return {
          original,
          d,
          mirrored,
          reclassified,
          reopened,
          posting: {
            kind: 'reversal',
            amount: original.amount,
            valueDate: original.valueDate,
            reversesId: original.id,
            details: {
              reason: dto.reason ?? null,
              reasonCode,
              scheduleRestored: !!d.scheduleChanged,
              interestReclassified: reclassified,
            },
            lines,
          },
          schedule: d.scheduleChanged ? { kind: 'restore', changedBy: original.id } : null,
          move: reopened ? { to: 'active', action: 'ReversePayment', also: { closedOn: null } } : null,
        };
      },
      events: (booked) => ({
        kind: 'reversal',
        loan: booked.ctx.loan,
        transaction: postedOf(booked),
        reversed: booked.plan.original,
        reason: dto.reason ?? null,
        reasonCode,
        lines: booked.plan.mirrored,
        reclassified: booked.plan.reclassified,
        rows: booked.after.rows,
        balances: booked.after.balances,
        reopened: booked.plan.reopened,
      }),
      answer: (booked) => {
        const { ctx, plan, after } = booked;
        const { original, d } = plan;
        const order = d.order ?? [...DEBT_COMPONENTS];
        return {
          transactionId: postedOf(booked).id,
          reversedTransactionId: original.id,
          loanId: ctx.loan.id,
          amount: original.amount,
          valueDate: original.valueDate,
          parts: this.views.parts(order, d.debts ?? zeroParts(), d.parts ?? zeroParts(), ctx.lang),
          overpayment: d.overpayment ?? 0,
          rule: d.rule ?? '',
          ruleText: this.views.ruleText(order, ctx.lang),
          scheduleRestored: !!d.scheduleChanged,
          loanStatus: ctx.loan.status,
          loanStatusName: this.texts.status(ctx.loan.status, ctx.lang),
          balances: this.views.balances(ctx.loan.id, ctx.loan.currency, after.totals, ctx.lang),
        };
      },
    };
  }

  private async gather(ctx: OperationContext, transactionId: string): Promise<ReversalInput> {
    const { organizationId, loan, tx } = ctx;
    const original = await this.ledger.byId(organizationId, loan.id, transactionId, tx);
    const none = { original, reversal: null, lines: [], blocking: null };
    if (!original || original.kind !== 'repayment') return none;
    const reversal = await this.ledger.reversalOf(organizationId, original.id, tx);
    if (reversal) return { ...none, reversal };
    const lines = await this.ledger.linesOf(organizationId, [original.id], tx);
    const scheduleChanged = !!(original.details as PaymentDetails).scheduleChanged;
    const blocking = await this.standingOn(organizationId, loan, original, lines, scheduleChanged, tx);
    return { original, reversal: null, lines, blocking };
  }

  /**
   * The transaction that stands on the payment, if any: a later operation (reverse that one first),
   * or the accruals after it when they depend on it. A later payment already reversed and its reversal
   * cancel out: neither stands on it (so payments are reversed latest first, one after the other). The
   * daily accruals after a payment are computed on the schedule, not on what was paid, and what is
   * overdue is made good by the next day's start, so they do not stand on a payment unless it changed
   * the schedule (its interest accrued on the new one),
   * or penalties would have run on what it paid (an instalment it paid fell due, past its grace days,
   * before the last day accrued).
   */
  private async standingOn(
    organizationId: OrganizationId,
    loan: Loan,
    original: LedgerTransaction,
    lines: PostingLine[],
    scheduleChanged: boolean,
    tx: Tx,
  ): Promise<LedgerTransaction | null> {
    const reversals = await this.ledger.reversalsOf(organizationId, loan.id, tx);
    const cancelled = new Set([...reversals].flatMap(([reversed, reversal]) => [reversed, reversal]));
    const later = (await this.ledger.after(organizationId, loan.id, original.seq, tx)).filter(
      (t) => !cancelled.has(t.id),
    );
    const operation = later.find((t) => !JOB_KINDS.includes(t.kind));
    if (operation || !later.length) return operation ?? null;
    const last = later[later.length - 1];
    if (scheduleChanged) return last;
    if (/^0(\.0*)?$/.test(loan.penaltyAnnualRate)) return null;
    const paid = [...new Set(lines.map((l) => l.instalmentId).filter((id) => id !== null))];
    const rows = await this.instalments.byIds(organizationId, loan.id, paid, tx);
    const lastDay = later.reduce((m, t) => (t.valueDate > m ? t.valueDate : m), original.valueDate);
    return rows.some((r) => daysBetween(r.dueDate, lastDay) > loan.penaltyGraceDays) ? last : null;
  }
}
