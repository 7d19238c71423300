import { Injectable } from '@nestjs/common';
import type { Language } from '@platform/i18n';
import { loanCostOfCredit } from './cost-of-credit';
import { daysBetween, todayUtc } from './loan-dates';
import { LoanTexts } from './loan-texts';
import type { Loan } from './loan.entity';
import { loanTransitionsFrom } from './loan-workflow';
import type { AllowedLoanMoveResponse, LoanResponse } from './dto/loan.response';
import type {
  InstalmentResponse,
  LedgerLineResponse,
  LoanBalancesResponse,
  LoanTransactionResponse,
} from './dto/ledger.response';
import type { AllocationPartResponse } from './dto/payment.response';
import { ACCOUNT_TYPES, LEDGER_ACCOUNTS, type LedgerAccount } from './ledger/chart-of-accounts';
import { balancesOf, interestOwed, principalOwed, trialBalance } from './ledger/balances';
import type { AccountTotals } from './ledger/ledger.repository';
import type { LedgerTransaction } from './ledger/ledger-transaction.entity';
import type { PostingLine } from './ledger/posting';
import type { DebtComponent } from './math';
import type { PositionRow } from './payments/payment-plan';

const left = (r: PositionRow) =>
  Math.max(0, r.principal - r.paid.principal) +
  Math.max(0, r.interest - r.paid.interest) +
  Math.max(0, r.fees - r.paid.fees);

/** The oldest unpaid due date before `today`, and how many days past it. */
export function overdueOf(rows: PositionRow[], today: string): { since: string | null; days: number } {
  const oldest = rows.find((r) => r.dueDate < today && left(r) > 0);
  return oldest
    ? { since: oldest.dueDate, days: daysBetween(oldest.dueDate, today) }
    : { since: null, days: 0 };
}

/** Rows as the API answers them: camelCase, statuses and names in the request's language. */
@Injectable()
export class LoanViews {
  constructor(private readonly texts: LoanTexts) {}

  moves(status: string, lang: Language): AllowedLoanMoveResponse[] {
    return loanTransitionsFrom(status).map((t) => ({
      action: t.action,
      to: t.to,
      toName: this.texts.status(t.to, lang),
    }));
  }

  loan(
    l: Loan,
    position: { rows: PositionRow[]; principalOutstanding: number },
    lang: Language,
    today = todayUtc(),
  ): LoanResponse {
    const next = position.rows.find((r) => left(r) > 0);
    return {
      id: l.id,
      status: l.status,
      statusName: this.texts.status(l.status, lang),
      applicationId: l.applicationId,
      customerId: l.customerId,
      productId: l.productId,
      currency: l.currency,
      principal: l.principal,
      termCount: l.termCount,
      annualRate: l.annualRate,
      frequency: l.frequency,
      scheduleType: l.scheduleType,
      dayCount: l.dayCount,
      interestMethod: l.interestMethod,
      graceInterestOnly: l.graceInterestOnly,
      gracePrincipal: l.gracePrincipal,
      originationFee: l.originationFee,
      penaltyAnnualRate: l.penaltyAnnualRate,
      penaltyGraceDays: l.penaltyGraceDays,
      allocationOrder: l.allocationOrder,
      rounding: l.rounding,
      disbursedOn: l.disbursedOn,
      closedOn: l.closedOn,
      principalOutstanding: position.principalOutstanding,
      nextDueDate: next?.dueDate ?? null,
      daysPastDue: l.status === 'active' ? overdueOf(position.rows, today).days : 0,
      costOfCredit: loanCostOfCredit(l, position.rows, today),
      allowedMoves: this.moves(l.status, lang),
      createdAt: l.createdAt.toISOString(),
      updatedAt: l.updatedAt.toISOString(),
    };
  }

  /** A row of the schedule; `superseded` when it belongs to an earlier version and is no longer in force. */
  instalment(r: PositionRow, lang: Language, today = todayUtc(), superseded = false): InstalmentResponse {
    const remaining = left(r);
    const paidAny = r.paid.principal + r.paid.interest + r.paid.fees > 0;
    const status = superseded
      ? 'superseded'
      : remaining === 0
        ? 'paid'
        : r.dueDate < today
          ? 'overdue'
          : r.dueDate === today
            ? 'due_today'
            : paidAny
              ? 'partially_paid'
              : 'upcoming';
    return {
      id: r.id,
      number: r.number,
      periodStart: r.periodStart,
      dueDate: r.dueDate,
      principal: r.principal,
      interest: r.interest,
      fees: r.fees,
      total: r.principal + r.interest + r.fees,
      balanceAfter: r.balanceAfter,
      paidPrincipal: r.paid.principal,
      paidInterest: r.paid.interest,
      paidFees: r.paid.fees,
      remaining,
      status,
      statusName: this.texts.name('instalmentStatuses', status, lang),
    };
  }

  line(l: PostingLine, lang: Language): LedgerLineResponse {
    return {
      account: l.account,
      accountName: this.texts.name('accounts', l.account, lang),
      debit: l.debit,
      credit: l.credit,
      component: l.component,
      instalmentId: l.instalmentId,
    };
  }

  ledgerTransaction(
    t: LedgerTransaction,
    lines: PostingLine[],
    reversedBy: string | null,
    lang: Language,
  ): LoanTransactionResponse {
    return {
      id: t.id,
      seq: t.seq,
      kind: t.kind,
      kindName: this.texts.name('transactionKinds', t.kind, lang),
      amount: t.amount,
      valueDate: t.valueDate,
      reversesId: t.reversesId,
      reversedBy,
      details: t.details,
      lines: lines.map((l) => this.line(l, lang)),
      createdAt: t.createdAt.toISOString(),
    };
  }

  balances(
    loanId: string,
    currency: string,
    totals: Record<LedgerAccount, AccountTotals>,
    lang: Language,
  ): LoanBalancesResponse {
    const b = balancesOf(totals);
    const trial = trialBalance(totals);
    return {
      loanId,
      currency,
      principalOutstanding: principalOwed(b),
      overduePrincipal: b.overdue_principal,
      interestReceivable: b.interest_receivable,
      overdueInterest: b.overdue_interest,
      interestAdvance: b.interest_advance,
      penaltyReceivable: b.penalty_receivable,
      feeReceivable: b.fee_receivable,
      overpayment: b.overpayment,
      cash: b.cash,
      totalOutstanding: principalOwed(b) + interestOwed(b) + b.penalty_receivable + b.fee_receivable,
      balanced: trial.debit === trial.credit,
      accounts: LEDGER_ACCOUNTS.map((a) => ({
        account: a,
        accountName: this.texts.name('accounts', a, lang),
        type: ACCOUNT_TYPES[a],
        debit: totals[a].debit,
        credit: totals[a].credit,
        balance: b[a],
      })),
    };
  }

  parts(
    order: readonly DebtComponent[],
    debts: Record<DebtComponent, number>,
    paid: Record<DebtComponent, number>,
    lang: Language,
  ): AllocationPartResponse[] {
    return order.map((c) => ({
      component: c,
      componentName: this.texts.name('components', c, lang),
      debt: debts[c],
      amount: paid[c],
    }));
  }

  /** "In this order: fees, penalties, ..." in the request's language. */
  ruleText(order: readonly DebtComponent[], lang: Language): string {
    const components = order.map((c) => this.texts.name('components', c, lang)).join(' → ');
    return this.texts.format('rules', 'order', { components }, lang);
  }
}
