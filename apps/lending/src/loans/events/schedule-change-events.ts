import type { AccountBalances } from '../ledger/balances';
import type { LedgerTransaction } from '../ledger/ledger-transaction.entity';
import type { Loan } from '../loan.entity';
import type { PositionRow } from '../payments/payment-plan';
import {
  accountingCommon,
  bureauBalances,
  bureauCommon,
  costOf,
  ev,
  instalmentAmount,
  postingsOf,
  type LoanEvent,
} from './event-payloads';

export const RESTRUCTURING_BASES = [
  'borrower-hardship',
  'lender-initiative',
  'court-decision',
  'statutory',
] as const;
export type RestructuringBasis = (typeof RESTRUCTURING_BASES)[number];
export const HOLIDAY_BASES = ['statutory', 'lender-programme'] as const;
export type HolidayBasis = (typeof HOLIDAY_BASES)[number];

/** What a schedule change did, as its service knows it. */
export interface ScheduleChangeFact {
  loan: Loan;
  transaction: LedgerTransaction;
  /** The schedule in force after it, with what was paid. */
  rows: PositionRow[];
  balances: AccountBalances;
  previousRate: string;
  previousMaturityDate: string;
  /** Past-due amounts the new schedule took over (moved back from the overdue accounts). */
  reclassifiedPrincipal: number;
  reclassifiedInterest: number;
}

const upcoming = (rows: PositionRow[], on: string) => rows.filter((r) => r.dueDate > on);

/**
 * RestructureLoan's events. To the bureau a restructuring of a borrower in difficulty (a `basis`
 * given) is `loan-restructured`; a change of terms agreed otherwise is `terms-changed`. Accounting
 * always gets `loan-restructured`, its postings the past-due amounts moved back to current.
 */
export function restructuredEvents(
  f: ScheduleChangeFact,
  basis: RestructuringBasis | null,
  today: string,
): LoanEvent[] {
  const { loan, transaction: t, rows } = f;
  const on = t.valueDate;
  const next = upcoming(rows, on);
  const maturityDate = rows.at(-1)?.dueDate ?? on;
  const instalment = instalmentAmount(loan, next);
  const bureau = basis
    ? ev('lending.bureau.loan-restructured', {
        ...bureauCommon(loan, on),
        restructuringId: t.id,
        basis,
        previousMaturityDate: f.previousMaturityDate,
        maturityDate,
        nominalRate: loan.annualRate,
        currency: loan.currency,
        instalmentAmount: instalment,
        capitalisedAmount: 0,
        balances: bureauBalances(rows, f.balances, on),
      })
    : ev('lending.bureau.terms-changed', {
        ...bureauCommon(loan, on),
        reason:
          f.previousRate !== loan.annualRate
            ? 'rate-change'
            : f.previousMaturityDate !== maturityDate
              ? 'maturity-change'
              : 'other',
        nominalRate: loan.annualRate,
        fullCostRate: costOf(
          loan,
          next.reduce((s, r) => s + r.principal - r.paid.principal, 0),
          on,
          next,
        ).fullCostRate,
        currency: loan.currency,
        maturityDate,
        instalmentAmount: instalment,
        nextPaymentDate: next[0]?.dueDate ?? null,
      });
  return [
    bureau,
    ev('lending.accounting.loan-restructured', {
      ...accountingCommon(loan, t.id, today),
      restructuringId: t.id,
      reclassifiedPrincipal: f.reclassifiedPrincipal,
      reclassifiedInterest: f.reclassifiedInterest,
      nominalRate: loan.annualRate,
      maturityDate,
      instalmentAmount: instalment,
      postings: postingsOf([
        { debit: 'loan_principal', credit: 'overdue_principal', amount: f.reclassifiedPrincipal },
        { debit: 'interest_receivable', credit: 'overdue_interest', amount: f.reclassifiedInterest },
      ]),
    }),
  ];
}

/**
 * GrantPaymentHoliday's events: the holiday runs from today to the due date of the last instalment it
 * defers. Interest accrued and not yet due is deferred with them; it stays on interest receivable in
 * the lending ledger (it is owed, only later), so the accounting event posts nothing.
 */
export function holidayGrantedEvents(
  f: ScheduleChangeFact,
  a: { basis: HolidayBasis; endDate: string; deferredInterest: number },
  today: string,
): LoanEvent[] {
  const { loan, transaction: t } = f;
  const on = t.valueDate;
  return [
    ev('lending.bureau.payment-holiday-granted', {
      ...bureauCommon(loan, on),
      holidayId: t.id,
      basis: a.basis,
      mode: 'full-deferral',
      startDate: on,
      endDate: a.endDate,
      currency: loan.currency,
      reducedInstalmentAmount: null,
    }),
    ev('lending.accounting.payment-holiday-granted', {
      ...accountingCommon(loan, t.id, today),
      holidayId: t.id,
      startDate: on,
      endDate: a.endDate,
      deferredInterest: a.deferredInterest,
      postings: postingsOf([]),
    }),
  ];
}
