import { MAX_SCHEDULE_TOTAL } from '../math';
import { LoanError, loanError } from '../loans.errors';
import { LEDGER_ACCOUNTS, type LedgerAccount } from './chart-of-accounts';
import type { PostingLine } from './posting';

/**
 * The most a loan's ledger may hold, in minor units: its turnover, the sum of every debit of every
 * transaction (equal to the sum of every credit), at most 2^52 - 1, half of Number.MAX_SAFE_INTEGER
 * (docs/decisions/0030-exact-money-range.md). Every line, transaction amount, account total and balance
 * of the loan is then at most this much, and any sum of them a read makes in JS (a trial balance, a total
 * outstanding, a balance net of another) stays below 2^53, so exact.
 */
export const MAX_LOAN_TURNOVER = 2 ** 52 - 1;

/**
 * The daily accruals stop charging a loan (interest and penalties) when a charge would take its
 * turnover past this (half the ceiling): the job cannot refuse anybody, and what is left under the
 * ceiling still lets the borrower pay the loan off or the lender write it off (each at most the debt,
 * which is at most the turnover).
 */
export const MAX_ACCRUAL_TURNOVER = Math.floor(MAX_LOAN_TURNOVER / 2);

/** 422 LOAN_MATH_OVERFLOW, naming what would leave the exact range. Nothing is written (it rolls back). */
export const overflow = (field: string) => loanError(LoanError.MATH_OVERFLOW, { field }, { field });

/**
 * A sum PostgreSQL computed (bigint or numeric, read as text) as a JS number, exactly: a value outside
 * the safe-integer range is refused (LOAN_MATH_OVERFLOW), never rounded to the nearest double.
 */
export function exactMinor(value: string | number | null, field: string): number {
  if (value === null) return 0;
  const text = String(value);
  if (!/^-?\d+$/.test(text)) throw overflow(field);
  const big = BigInt(text);
  if (big > BigInt(Number.MAX_SAFE_INTEGER) || big < -BigInt(Number.MAX_SAFE_INTEGER)) throw overflow(field);
  return Number(big);
}

/** The loan's turnover: the sum of the debits of every account (bigint, so exact whatever the inputs). */
export function turnoverOf(totals: Record<LedgerAccount, { debit: number }>): bigint {
  return LEDGER_ACCOUNTS.reduce((s, a) => s + BigInt(totals[a].debit), 0n);
}

/** What `lines` add to the turnover. */
export const debitsOf = (lines: readonly PostingLine[]): bigint =>
  lines.reduce((s, l) => s + BigInt(l.debit), 0n);

/**
 * Refuses (LOAN_MATH_OVERFLOW) a transaction amount or a line above the loan's ceiling. Lines are whole
 * non-negative minor units already (Posting checks them).
 */
export function checkPostingRange(amount: number, lines: readonly PostingLine[]): void {
  if (!Number.isSafeInteger(amount) || amount > MAX_LOAN_TURNOVER) throw overflow('amount');
  for (const l of lines)
    if (l.debit > MAX_LOAN_TURNOVER || l.credit > MAX_LOAN_TURNOVER) throw overflow(`lines.${l.account}`);
}

/** Refuses (LOAN_MATH_OVERFLOW) a turnover above MAX_LOAN_TURNOVER. */
export function checkTurnover(turnover: bigint): void {
  if (turnover > BigInt(MAX_LOAN_TURNOVER)) throw overflow('ledger');
}

/**
 * The range a loan's position must stay in, checked whenever it is read (and so after every operation
 * books, before it commits): the ledger's turnover at most MAX_LOAN_TURNOVER and the schedule in force
 * totalling at most MAX_SCHEDULE_TOTAL. Refused with LOAN_MATH_OVERFLOW otherwise.
 */
export function checkPositionRange(
  totals: Record<LedgerAccount, { debit: number }>,
  rows: readonly { principal: number; interest: number; fees: number }[],
): void {
  checkTurnover(turnoverOf(totals));
  let scheduled = 0n;
  for (const r of rows) scheduled += BigInt(r.principal) + BigInt(r.interest) + BigInt(r.fees);
  if (scheduled > MAX_SCHEDULE_TOTAL) throw overflow('schedule');
}
