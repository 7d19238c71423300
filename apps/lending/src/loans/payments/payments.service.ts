import { Injectable } from '@nestjs/common';
import type { Language } from '@platform/i18n';
import type { OrganizationId } from '@platform/tenancy';
import type { IdempotentRequest } from '@platform/idempotency';
import { nextDay } from '../accruals/accrual-plan';
import { LoanAccruals } from '../accruals/loan-accruals.service';
import type { MakePaymentRequest, PreviewPaymentRequest } from '../dto/payment.request';
import type { PaymentResponse } from '../dto/payment.response';
import type { PaymentChannel } from '../events/loan-facts';
import { balancesOf, interestHeld, principalOwed } from '../ledger/balances';
import type { OverdueBalance } from '../ledger/ledger.repository';
import type { LoanPosition } from '../ledger/loan-book';
import { LoanTexts } from '../loan-texts';
import { LoanViews } from '../loan-views';
import type { Loan } from '../loan.entity';
import { LoanError, loanError } from '../loans.errors';
import { allocate, reschedule, type Allocation, type Instalment } from '../math';
import { withTerms } from '../math-errors';
import {
  postedOf,
  type MoneyOperation,
  type MoneyPlan,
  type OperationContext,
} from '../operations/money-operation';
import { MoneyPipeline } from '../operations/money-pipeline';
import {
  closingSettlement,
  fullyRepaid,
  paymentLines,
  rowsAfter,
  withLines,
  type PaymentBooking,
} from './payment-booking';
import { creditInterest, planDebts, type DebtPlan, type PaymentMode, type PositionRow } from './payment-plan';

/** What a payment reads besides the position: the earliest day it may be valued on, what is overdue. */
interface PaymentInput {
  lastValueDate: string | null;
  /** The last day whose interest has accrued (an early repayment comes after it). */
  accruedThrough: string | null;
  onOverdue: Map<string, OverdueBalance>;
}

/** Everything a payment decides before anything is booked (MakePayment books it, PreviewPayment shows it). */
interface PaymentPlan extends MoneyPlan {
  amount: number;
  channel: PaymentChannel;
  valueDate: string;
  mode: PaymentMode;
  plan: DebtPlan;
  allocation: Allocation;
  booking: PaymentBooking;
  scheduleChanged: boolean;
  /** Whether the payment leaves nothing owed (its lines then settle the interest accounts too). */
  closes: boolean;
}

interface PaymentAsked {
  loanId: string;
  amount: number;
  valueDate?: string;
  mode: PaymentMode;
  channel: PaymentChannel;
}

/**
 * Payments (docs/lending/loans.md, "Payments"): MakePayment books one through the money pipeline, once
 * per Idempotency-Key; PreviewPayment computes the same plan and books nothing (the pipeline's
 * preview). Both run under the loan's row lock (the preview too, so it reads a ledger no payment is
 * halfway through), and both first bring the loan's accruals up to the value date (the preview inside
 * a savepoint it rolls back), so the allocation sees the interest, penalties and overdue of the days
 * before the payment.
 */
@Injectable()
export class PaymentsService {
  constructor(
    private readonly pipeline: MoneyPipeline,
    private readonly accruals: LoanAccruals,
    private readonly views: LoanViews,
    private readonly texts: LoanTexts,
  ) {}

  make(
    organizationId: OrganizationId,
    keyId: string,
    request: IdempotentRequest,
    dto: MakePaymentRequest,
    lang: Language,
  ): Promise<PaymentResponse> {
    const asked: PaymentAsked = {
      loanId: dto.loanId,
      amount: dto.amount,
      valueDate: dto.valueDate,
      mode: (dto.mode ?? 'regular') as PaymentMode,
      channel: (dto.channel ?? 'other') as PaymentChannel,
    };
    return this.pipeline.run(organizationId, keyId, request, lang, this.operation(asked));
  }

  preview(
    organizationId: OrganizationId,
    q: PreviewPaymentRequest,
    lang: Language,
  ): Promise<PaymentResponse> {
    const asked: PaymentAsked = {
      loanId: q.LoanId,
      amount: q.Amount,
      valueDate: q.ValueDate,
      mode: (q.Mode ?? 'regular') as PaymentMode,
      channel: 'other',
    };
    return this.pipeline.preview(organizationId, lang, this.operation(asked), (ctx, before, plan) => {
      const totals = withLines(before.totals, plan.booking.lines);
      const answer = this.answer(ctx.loan, null, plan, totals, ctx.lang);
      return plan.closes
        ? { ...answer, loanStatus: 'closed', loanStatusName: this.texts.status('closed', ctx.lang) }
        : answer;
    });
  }

  private operation(asked: PaymentAsked): MoneyOperation<PaymentInput, PaymentPlan, PaymentResponse> {
    return {
      loanId: asked.loanId,
      admission: { kind: 'active' },
      catchUpTo: (ctx) => asked.valueDate ?? ctx.today,
      gather: async (ctx, before) => ({
        lastValueDate: before.lastValueDate,
        accruedThrough:
          asked.mode === 'regular'
            ? null
            : await this.accruals.accruedThrough(ctx.organizationId, ctx.loan, ctx.tx),
        onOverdue: before.onOverdue,
      }),
      plan: (ctx, before, input) => planPayment(ctx, before, input, asked),
      events: (booked) => ({
        kind: 'payment',
        loan: booked.ctx.loan,
        transaction: postedOf(booked),
        mode: booked.plan.mode,
        channel: booked.plan.channel,
        parts: booked.plan.allocation.parts,
        order: booked.plan.plan.order,
        rule: booked.plan.allocation.rule,
        overpayment: booked.plan.allocation.overpayment,
        lines: booked.plan.booking.lines,
        rowsBefore: booked.before.rows,
        rows: booked.after.rows,
        balances: booked.after.balances,
        scheduleChanged: booked.plan.scheduleChanged,
        closed: booked.plan.closes,
      }),
      answer: (booked) =>
        this.answer(booked.ctx.loan, postedOf(booked).id, booked.plan, booked.after.totals, booked.ctx.lang),
    };
  }

  private answer(
    loan: Loan,
    transactionId: string | null,
    p: PaymentPlan,
    totals: LoanPosition['totals'],
    lang: Language,
  ): PaymentResponse {
    return {
      transactionId,
      loanId: loan.id,
      amount: p.amount,
      currency: loan.currency,
      valueDate: p.valueDate,
      mode: p.mode,
      parts: this.views.parts(p.plan.order, p.plan.debts, p.allocation.parts, lang),
      overpayment: p.allocation.overpayment,
      rule: p.allocation.rule,
      ruleText: this.views.ruleText(p.plan.order, lang),
      scheduleChanged: p.scheduleChanged,
      loanStatus: loan.status,
      loanStatusName: this.texts.status(loan.status, lang),
      balances: this.views.balances(loan.id, loan.currency, totals, lang),
    };
  }
}

/**
 * The value date asked for (default today), or 422 when outside [disbursement or last transaction, today].
 * An early repayment changes the schedule from its value date, so it also comes after the last day whose
 * interest has accrued (that day's interest ran on the schedule it would replace).
 */
function valueDateOf(ctx: OperationContext, input: PaymentInput, requested: string | undefined): string {
  const { loan, today } = ctx;
  const earliest = [
    loan.disbursedOn ?? today,
    input.lastValueDate ?? today,
    ...(input.accruedThrough ? [nextDay(input.accruedThrough)] : []),
  ]
    .sort()
    .at(-1) as string;
  const date = requested ?? today;
  if (date < earliest || date > today)
    throw loanError(
      LoanError.VALUE_DATE_OUT_OF_RANGE,
      { date, earliest, latest: today },
      { earliest, latest: today },
    );
  return date;
}

/** A payment's plan: its allocation, its lines, and for an early repayment the new schedule. */
function planPayment(
  ctx: OperationContext,
  position: LoanPosition,
  input: PaymentInput,
  asked: PaymentAsked,
): PaymentPlan {
  const { loan } = ctx;
  const { amount, mode } = asked;
  const valueDate = valueDateOf(ctx, input, asked.valueDate);
  const plan = withTerms(() =>
    planDebts({
      rows: position.rows,
      valueDate,
      mode,
      order: loan.allocationOrder,
      principalOutstanding: principalOwed(position.balances),
      penaltyReceivable: Math.max(0, position.balances.penalty_receivable),
      interestHeld: interestHeld(position.balances),
    }),
  );
  const allocation = withTerms(() => allocate(amount, plan.debts, plan.order));
  const booking = paymentLines(
    amount,
    plan,
    allocation,
    position.balances.interest_receivable,
    input.onOverdue,
  );
  // An early repayment replaces the instalments due after its value date.
  const replaced =
    mode !== 'regular' && booking.prepaid > 0
      ? new Set(position.rows.filter((r) => r.dueDate > valueDate).map((r) => r.id))
      : new Set<string>();
  // Principal left after an early repayment gets a new schedule: fullyRepaid says no for it.
  const after = balancesOf(withLines(position.totals, booking.lines));
  const closes = fullyRepaid(rowsAfter(position.rows, booking.lines, replaced), after);
  const settlement = closes ? closingSettlement(after) : [];
  if (settlement.length) booking.lines = [...booking.lines, ...settlement];
  const scheduleChanged = replaced.size > 0;
  return {
    amount,
    channel: asked.channel,
    valueDate,
    mode,
    plan,
    allocation,
    booking,
    scheduleChanged,
    closes,
    posting: {
      kind: 'repayment',
      amount,
      valueDate,
      details: {
        mode,
        parts: allocation.parts,
        debts: plan.debts,
        order: plan.order,
        overpayment: allocation.overpayment,
        rule: allocation.rule,
        prepaid: booking.prepaid,
        channel: asked.channel,
        scheduleChanged,
      },
      lines: booking.lines,
    },
    schedule: scheduleChanged
      ? {
          kind: 'replace',
          superseded: [...replaced],
          rows: rescheduled(loan, position, valueDate, mode, plan, booking, replaced),
        }
      : null,
    move: closes ? { to: 'closed', action: 'MakePayment', also: { closedOn: valueDate } } : null,
  };
}

/**
 * An early repayment's new schedule: the instalments due after the value date are replaced by the
 * loan math's reschedule of the principal left (same due dates and a smaller instalment, or the same
 * instalment and fewer dates), minus any interest the replaced instalment had been paid ahead. Nothing
 * when no principal is left.
 */
function rescheduled(
  loan: Loan,
  position: LoanPosition,
  valueDate: string,
  mode: PaymentMode,
  plan: DebtPlan,
  booking: PaymentBooking,
  replaced: Set<string>,
): Instalment[] {
  const principal = principalOwed(position.balances) - booking.principalPaid;
  if (principal <= 0) return [];
  const future: PositionRow[] = position.rows.filter((r) => replaced.has(r.id));
  const rows = withTerms(() =>
    reschedule(
      {
        principal,
        fromDate: valueDate,
        annualRate: loan.annualRate,
        frequency: loan.frequency,
        scheduleType: loan.scheduleType,
        dayCount: loan.dayCount,
        interestMethod: loan.interestMethod,
        rounding: loan.rounding,
        instalments: future.map((r) => ({
          number: r.number,
          dueDate: r.dueDate,
          principal: r.principal,
          interest: r.interest,
        })),
      },
      { kind: 'prepayment', mode: mode === 'reduceTerm' ? 'reduce-term' : 'reduce-instalment' },
    ),
  );
  return creditInterest(rows, plan.interestCredit);
}
