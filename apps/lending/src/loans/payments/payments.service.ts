import { Injectable } from '@nestjs/common';
import type { Language } from '@platform/i18n';
import type { Tx } from '@platform/persistence';
import type { OrganizationId } from '@platform/tenancy';
import type { IdempotentRequest } from '../../idempotency/idempotent-request';
import { IdempotentOperations } from '../../idempotency/idempotent-operations';
import { TenantData } from '../../tenancy/tenant-data';
import { nextDay } from '../accruals/accrual-plan';
import { LoanAccruals } from '../accruals/loan-accruals.service';
import type { MakePaymentRequest, PreviewPaymentRequest } from '../dto/payment.request';
import type { PaymentResponse } from '../dto/payment.response';
import { LoanEvents } from '../events/loan-events';
import type { PaymentChannel } from '../events/loan-facts';
import { balancesOf, interestHeld, principalOwed } from '../ledger/balances';
import { LedgerRepository } from '../ledger/ledger.repository';
import { LoanBook, type LoanPosition } from '../ledger/loan-book';
import { todayUtc } from '../loan-dates';
import { LoanMoves } from '../loan-moves';
import { LoanTexts } from '../loan-texts';
import { LoanViews } from '../loan-views';
import type { Loan } from '../loan.entity';
import { LoanError, loanError } from '../loans.errors';
import { allocate, reschedule, type Allocation } from '../math';
import { withTerms } from '../math-errors';
import { InstalmentsRepository } from '../schedule/instalments.repository';
import { ScheduleVersionsRepository } from '../schedule/schedule-versions.repository';
import {
  closingSettlement,
  fullyRepaid,
  paymentLines,
  rowsAfter,
  withLines,
  type PaymentBooking,
} from './payment-booking';
import { creditInterest, planDebts, type DebtPlan, type PaymentMode, type PositionRow } from './payment-plan';

/** Everything a payment decides before anything is booked (MakePayment books it, PreviewPayment shows it). */
interface Computed {
  valueDate: string;
  mode: PaymentMode;
  position: LoanPosition;
  plan: DebtPlan;
  allocation: Allocation;
  booking: PaymentBooking;
  /** Instalments an early repayment replaces (those due after the value date). */
  replaced: Set<string>;
  /** Whether the payment leaves nothing owed (its lines then settle the interest accounts too). */
  closes: boolean;
}

/**
 * Payments (docs/lending/loans.md, "Payments"): MakePayment books one, once per Idempotency-Key;
 * PreviewPayment computes the same allocation and books nothing. Both run under the loan's row lock
 * (the preview too, so it reads a ledger no payment is halfway through), and both first bring the
 * loan's accruals up to the value date (the preview inside a savepoint it rolls back), so the
 * allocation sees the interest, penalties and overdue of the days before the payment.
 */
@Injectable()
export class PaymentsService {
  constructor(
    private readonly data: TenantData,
    private readonly idempotency: IdempotentOperations,
    private readonly moves: LoanMoves,
    private readonly ledger: LedgerRepository,
    private readonly instalments: InstalmentsRepository,
    private readonly book: LoanBook,
    private readonly views: LoanViews,
    private readonly texts: LoanTexts,
    private readonly events: LoanEvents,
    private readonly accruals: LoanAccruals,
    private readonly versions: ScheduleVersionsRepository,
  ) {}

  make(
    organizationId: OrganizationId,
    keyId: string,
    op: IdempotentRequest,
    dto: MakePaymentRequest,
    lang: Language,
  ): Promise<PaymentResponse> {
    return this.idempotency.run(organizationId, op, async (tx) => {
      const loan = await this.moves.lockOrFail(organizationId, dto.loanId, tx);
      this.moves.requireActive(loan, lang);
      await this.accruals.catchUp(organizationId, loan, dto.valueDate ?? todayUtc(), tx);
      const c = await this.compute(
        organizationId,
        loan,
        dto.amount,
        dto.valueDate,
        (dto.mode ?? 'regular') as PaymentMode,
        tx,
      );
      const scheduleChanged = c.replaced.size > 0;
      const transaction = await this.ledger.post(
        organizationId,
        {
          loanId: loan.id,
          kind: 'repayment',
          amount: dto.amount,
          valueDate: c.valueDate,
          idempotencyKey: op.key,
          details: {
            mode: c.mode,
            parts: c.allocation.parts,
            debts: c.plan.debts,
            order: c.plan.order,
            overpayment: c.allocation.overpayment,
            rule: c.allocation.rule,
            prepaid: c.booking.prepaid,
            channel: dto.channel ?? 'other',
            scheduleChanged,
          },
          keyId,
        },
        c.booking.lines,
        tx,
      );
      if (scheduleChanged) await this.regenerate(organizationId, loan, c, transaction.id, tx);
      const after = await this.book.position(organizationId, loan.id, tx);
      // As compute() foresaw it (its lines settle the interest accounts when it closes the loan).
      const closed = c.closes;
      if (closed)
        await this.moves.move(organizationId, loan, 'closed', 'MakePayment', lang, tx, {
          closedOn: c.valueDate,
        });
      await this.events.record(tx, organizationId, {
        kind: 'payment',
        loan,
        transaction,
        mode: c.mode,
        channel: (dto.channel ?? 'other') as PaymentChannel,
        parts: c.allocation.parts,
        order: c.plan.order,
        rule: c.allocation.rule,
        overpayment: c.allocation.overpayment,
        lines: c.booking.lines,
        rowsBefore: c.position.rows,
        rows: after.rows,
        balances: after.balances,
        scheduleChanged,
        closed,
      });
      return this.answer(loan, transaction.id, dto.amount, c, after.totals, scheduleChanged, lang);
    });
  }

  preview(
    organizationId: OrganizationId,
    q: PreviewPaymentRequest,
    lang: Language,
  ): Promise<PaymentResponse> {
    return this.data.run(organizationId, async (tx) => {
      const loan = await this.moves.lockOrFail(organizationId, q.LoanId, tx);
      this.moves.requireActive(loan, lang);
      // The accruals a payment would post first are posted here too, and rolled back with the savepoint.
      return this.ledger.dryRun(tx, async () => {
        await this.accruals.catchUp(organizationId, loan, q.ValueDate ?? todayUtc(), tx);
        const c = await this.compute(
          organizationId,
          loan,
          q.Amount,
          q.ValueDate,
          (q.Mode ?? 'regular') as PaymentMode,
          tx,
        );
        const totals = withLines(c.position.totals, c.booking.lines);
        const answer = this.answer(loan, null, q.Amount, c, totals, c.replaced.size > 0, lang);
        return c.closes
          ? { ...answer, loanStatus: 'closed', loanStatusName: this.texts.status('closed', lang) }
          : answer;
      });
    });
  }

  private async compute(
    organizationId: OrganizationId,
    loan: Loan,
    amount: number,
    requestedDate: string | undefined,
    mode: PaymentMode,
    tx: Tx,
  ): Promise<Computed> {
    const valueDate = await this.valueDate(organizationId, loan, requestedDate, mode, tx);
    const position = await this.book.position(organizationId, loan.id, tx);
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
    const onOverdue = await this.ledger.overdueByInstalment(organizationId, loan.id, tx);
    const booking = paymentLines(amount, plan, allocation, position.balances.interest_receivable, onOverdue);
    const replaced =
      mode !== 'regular' && booking.prepaid > 0
        ? new Set(position.rows.filter((r) => r.dueDate > valueDate).map((r) => r.id))
        : new Set<string>();
    // Principal left after an early repayment gets a new schedule: fullyRepaid says no for it.
    const after = balancesOf(withLines(position.totals, booking.lines));
    const closes = fullyRepaid(rowsAfter(position.rows, booking.lines, replaced), after);
    const settlement = closes ? closingSettlement(after) : [];
    if (settlement.length) booking.lines = [...booking.lines, ...settlement];
    return { valueDate, mode, position, plan, allocation, booking, replaced, closes };
  }

  /**
   * The value date asked for (default today), or 422 when outside [disbursement or last transaction, today].
   * An early repayment changes the schedule from its value date, so it also comes after the last day whose
   * interest has accrued (that day's interest ran on the schedule it would replace).
   */
  private async valueDate(
    organizationId: OrganizationId,
    loan: Loan,
    requested: string | undefined,
    mode: PaymentMode,
    tx: Tx,
  ) {
    const today = todayUtc();
    const last = await this.ledger.lastValueDate(organizationId, loan.id, tx);
    const accrued = mode === 'regular' ? null : await this.accruals.accruedThrough(organizationId, loan, tx);
    const earliest = [loan.disbursedOn ?? today, last ?? today, ...(accrued ? [nextDay(accrued)] : [])]
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

  /**
   * An early repayment's new schedule: the instalments due after the value date are replaced by the
   * loan math's reschedule of the principal left (same due dates and a smaller instalment, or the same
   * instalment and fewer dates), minus any interest the replaced instalment had been paid ahead.
   */
  private async regenerate(organizationId: OrganizationId, loan: Loan, c: Computed, by: string, tx: Tx) {
    const future = c.position.rows.filter((r) => c.replaced.has(r.id));
    await this.instalments.supersede(organizationId, loan.id, [...c.replaced], by, tx);
    const principal = principalOwed(c.position.balances) - c.booking.principalPaid;
    if (principal > 0) await this.addRescheduled(organizationId, loan, c, principal, future, by, tx);
    await this.versions.record(organizationId, loan.id, by, tx);
  }

  private async addRescheduled(
    organizationId: OrganizationId,
    loan: Loan,
    c: Computed,
    principal: number,
    future: PositionRow[],
    by: string,
    tx: Tx,
  ) {
    const rows = withTerms(() =>
      reschedule(
        {
          principal,
          fromDate: c.valueDate,
          annualRate: loan.annualRate,
          frequency: loan.frequency,
          scheduleType: loan.scheduleType,
          dayCount: loan.dayCount,
          rounding: loan.rounding,
          instalments: future.map((r) => ({
            number: r.number,
            dueDate: r.dueDate,
            principal: r.principal,
            interest: r.interest,
          })),
        },
        { kind: 'prepayment', mode: c.mode === 'reduceTerm' ? 'reduce-term' : 'reduce-instalment' },
      ),
    );
    await this.instalments.add(organizationId, loan.id, creditInterest(rows, c.plan.interestCredit), by, tx);
  }

  private answer(
    loan: Loan,
    transactionId: string | null,
    amount: number,
    c: Computed,
    totals: LoanPosition['totals'],
    scheduleChanged: boolean,
    lang: Language,
  ): PaymentResponse {
    return {
      transactionId,
      loanId: loan.id,
      amount,
      currency: loan.currency,
      valueDate: c.valueDate,
      mode: c.mode,
      parts: this.views.parts(c.plan.order, c.plan.debts, c.allocation.parts, lang),
      overpayment: c.allocation.overpayment,
      rule: c.allocation.rule,
      ruleText: this.views.ruleText(c.plan.order, lang),
      scheduleChanged,
      loanStatus: loan.status,
      loanStatusName: this.texts.status(loan.status, lang),
      balances: this.views.balances(loan.id, loan.currency, totals, lang),
    };
  }
}
