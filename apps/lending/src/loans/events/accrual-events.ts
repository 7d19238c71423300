import type { AccountBalances } from '../ledger/balances';
import type { LedgerTransaction } from '../ledger/ledger-transaction.entity';
import type { Loan } from '../loan.entity';
import type { PositionRow } from '../payments/payment-plan';
import type { OverdueMove } from '../accruals/accrual-plan';
import {
  accountingCommon,
  bureauBalances,
  bureauCommon,
  ev,
  postingsOf,
  type EventPosting,
  type LoanEvent,
} from './event-payloads';

/**
 * The events of the accruals job (docs/lending/loans.md, "Accruals"; docs/lending/events.md), one
 * builder per posting. Pure: `today` is the ledger's open accounting day. The accounting events of a
 * posting share its ledger transaction as `operationId` and post exactly its lines.
 */

/** How an interest amount was booked: out of interest received ahead, or as receivable. */
export interface InterestSides {
  advance: number;
  receivable: number;
}

/** The postings of interest earned (a positive amount) or taken back (negative), pair by pair. */
export function interestPostings(amount: number, sides: InterestSides): EventPosting[] {
  return amount >= 0
    ? [
        { debit: 'interest_advance', credit: 'interest_income', amount: sides.advance },
        { debit: 'interest_receivable', credit: 'interest_income', amount: sides.receivable },
      ]
    : [
        { debit: 'interest_income', credit: 'interest_receivable', amount: sides.receivable },
        { debit: 'interest_income', credit: 'interest_advance', amount: sides.advance },
      ];
}

export function interestAccruedEvents(
  loan: Loan,
  t: LedgerTransaction,
  a: { day: string; amount: number; base: number; sides: InterestSides },
  today: string,
): LoanEvent[] {
  return [
    ev('lending.accounting.interest-accrued', {
      ...accountingCommon(loan, t.id, today),
      accrualDate: a.day,
      amount: a.amount,
      principalBase: a.base,
      nominalRate: loan.annualRate,
      dayCount: loan.dayCount,
      postings: postingsOf(interestPostings(a.amount, a.sides)),
    }),
  ];
}

export function interestAdjustedEvents(
  loan: Loan,
  t: LedgerTransaction,
  a: { from: string; to: string; amount: number; sides: InterestSides },
  today: string,
): LoanEvent[] {
  return [
    ev('lending.accounting.interest-accrual-adjusted', {
      ...accountingCommon(loan, t.id, today),
      periodFrom: a.from,
      periodTo: a.to,
      direction: a.amount > 0 ? 'increase' : 'decrease',
      amount: Math.abs(a.amount),
      reason: 'other',
      postings: postingsOf(interestPostings(a.amount, a.sides)),
    }),
  ];
}

export function penaltyAccruedEvents(
  loan: Loan,
  t: LedgerTransaction,
  a: { day: string; amount: number; base: number; daysPastDue: number },
  today: string,
): LoanEvent[] {
  return [
    ev('lending.accounting.penalty-accrued', {
      ...accountingCommon(loan, t.id, today),
      accrualDate: a.day,
      amount: a.amount,
      overdueBase: a.base,
      penaltyRate: loan.penaltyAnnualRate,
      daysPastDue: a.daysPastDue,
      postings: postingsOf([{ debit: 'penalty_receivable', credit: 'penalty_income', amount: a.amount }]),
    }),
  ];
}

/** Each instalment's principal and interest moved to overdue: one event each, as accounting lists them. */
export function movedOverdueEvents(
  loan: Loan,
  t: LedgerTransaction,
  moves: OverdueMove[],
  today: string,
): LoanEvent[] {
  const out: LoanEvent[] = [];
  for (const m of moves) {
    if (m.principal > 0)
      out.push(
        ev('lending.accounting.principal-overdue', {
          ...accountingCommon(loan, t.id, today),
          instalmentNumber: m.number,
          dueDate: m.dueDate,
          amount: m.principal,
          postings: postingsOf([
            { debit: 'overdue_principal', credit: 'loan_principal', amount: m.principal },
          ]),
        }),
      );
    if (m.interest > 0)
      out.push(
        ev('lending.accounting.interest-overdue', {
          ...accountingCommon(loan, t.id, today),
          instalmentNumber: m.number,
          dueDate: m.dueDate,
          amount: m.interest,
          postings: postingsOf([
            { debit: 'overdue_interest', credit: 'interest_receivable', amount: m.interest },
          ]),
        }),
      );
  }
  return out;
}

/** The first day past due of an overdue (the bureau hears of it once, until it is repaid). */
export function overdueStartedEvents(
  loan: Loan,
  a: { day: string; since: string; amount: number; rows: PositionRow[]; balances: AccountBalances },
): LoanEvent[] {
  return [
    ev('lending.bureau.overdue-started', {
      ...bureauCommon(loan, a.day),
      overdueSince: a.since,
      overdueAmount: a.amount,
      currency: loan.currency,
      balances: bureauBalances(a.rows, a.balances, a.day),
    }),
  ];
}
