import { LEDGER_ACCOUNTS, debitSign, type LedgerAccount } from './chart-of-accounts';
import type { AccountTotals } from './ledger.repository';
import { exactMinor } from './money-range';

/** Every account's balance, by its normal side (assets debit - credit, liabilities credit - debit). */
export type AccountBalances = Record<LedgerAccount, number>;

export function balancesOf(totals: Record<LedgerAccount, AccountTotals>): AccountBalances {
  return Object.fromEntries(
    LEDGER_ACCOUNTS.map((a) => [a, debitSign(a) * (totals[a].debit - totals[a].credit)]),
  ) as AccountBalances;
}

/** Principal owed: current and past due. */
export const principalOwed = (b: AccountBalances): number => b.loan_principal + b.overdue_principal;

/** Interest accrued and owed: current and past due (interest paid ahead is not subtracted). */
export const interestOwed = (b: AccountBalances): number => b.interest_receivable + b.overdue_interest;

/**
 * Interest the ledger holds: accrued (or carried, or deferred) and not paid, current and past due, net of
 * interest paid ahead. What the schedule in force bills and has not been paid, less what it bills that
 * has not accrued yet (docs/lending/loans.md, "Interest the ledger holds").
 */
export const interestHeld = (b: AccountBalances): number =>
  b.interest_receivable + b.overdue_interest - b.interest_advance;

/**
 * Sum of debits and of credits over all accounts: equal in a balanced ledger. Added up in bigint and
 * converted exactly (a sum past 2^53 is refused, LOAN_MATH_OVERFLOW, never rounded: a rounded pair can
 * differ by one and report a balanced ledger unbalanced).
 */
export function trialBalance(totals: Record<LedgerAccount, AccountTotals>): {
  debit: number;
  credit: number;
} {
  let debit = 0n;
  let credit = 0n;
  for (const a of LEDGER_ACCOUNTS) {
    debit += BigInt(totals[a].debit);
    credit += BigInt(totals[a].credit);
  }
  return { debit: exactMinor(debit.toString(), 'debit'), credit: exactMinor(credit.toString(), 'credit') };
}
