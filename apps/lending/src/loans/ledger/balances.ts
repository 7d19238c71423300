import { LEDGER_ACCOUNTS, debitSign, type LedgerAccount } from './chart-of-accounts';
import type { AccountTotals } from './ledger.repository';

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

/** Sum of debits and of credits over all accounts: equal in a balanced ledger. */
export function trialBalance(totals: Record<LedgerAccount, AccountTotals>): {
  debit: number;
  credit: number;
} {
  return LEDGER_ACCOUNTS.reduce(
    (s, a) => ({ debit: s.debit + totals[a].debit, credit: s.credit + totals[a].credit }),
    { debit: 0, credit: 0 },
  );
}
