import { MAX_MINOR_UNITS } from '../../common/money-limits';
import { MAX_SCHEDULE_TOTAL } from '../math';
import { trialBalance } from './balances';
import { LEDGER_ACCOUNTS, type LedgerAccount } from './chart-of-accounts';
import type { AccountTotals } from './ledger.repository';
import {
  MAX_ACCRUAL_TURNOVER,
  MAX_LOAN_TURNOVER,
  checkPositionRange,
  checkPostingRange,
  exactMinor,
  turnoverOf,
} from './money-range';

const reason = (f: () => unknown) => {
  try {
    f();
  } catch (err) {
    return (err as { reason?: string }).reason;
  }
  return null;
};

const totalsWith = (over: Partial<Record<LedgerAccount, AccountTotals>>) =>
  Object.fromEntries(LEDGER_ACCOUNTS.map((a) => [a, over[a] ?? { debit: 0, credit: 0 }])) as Record<
    LedgerAccount,
    AccountTotals
  >;

describe('the exact money range (docs/decisions/0030-exact-money-range.md)', () => {
  it('keeps the schedule ceiling equal to the most a request carries, and both below the ledger ceiling', () => {
    expect(MAX_SCHEDULE_TOTAL).toBe(BigInt(MAX_MINOR_UNITS));
    expect(MAX_LOAN_TURNOVER).toBe(2 ** 52 - 1);
    // Any sum or difference of two amounts under the ceiling is still a safe integer.
    expect(Number.isSafeInteger(MAX_LOAN_TURNOVER * 2)).toBe(true);
    expect(MAX_ACCRUAL_TURNOVER * 2).toBeLessThanOrEqual(MAX_LOAN_TURNOVER);
    expect(MAX_MINOR_UNITS).toBeLessThan(MAX_ACCRUAL_TURNOVER);
  });

  it('converts sums from SQL exactly, and refuses one past 2^53 instead of rounding it', () => {
    expect(exactMinor('9007199254740991', 'x')).toBe(Number.MAX_SAFE_INTEGER);
    expect(exactMinor('-9007199254740991', 'x')).toBe(-Number.MAX_SAFE_INTEGER);
    expect(exactMinor(null, 'x')).toBe(0);
    // Number('9999999999899999') is 9999999999900000: the off-by-one of issue 23.
    expect(Number('9999999999899999')).toBe(9999999999900000);
    expect(reason(() => exactMinor('9999999999899999', 'cash.debit'))).toBe('LOAN_MATH_OVERFLOW');
    expect(reason(() => exactMinor('9007199254740992', 'x'))).toBe('LOAN_MATH_OVERFLOW');
    expect(reason(() => exactMinor('1.5', 'x'))).toBe('LOAN_MATH_OVERFLOW');
  });

  it('adds a trial balance in bigint: a pair past 2^53 is refused, not reported unbalanced', () => {
    const near = totalsWith({
      cash: { debit: MAX_LOAN_TURNOVER, credit: 0 },
      loan_principal: { debit: 0, credit: MAX_LOAN_TURNOVER },
    });
    expect(trialBalance(near)).toEqual({ debit: MAX_LOAN_TURNOVER, credit: MAX_LOAN_TURNOVER });
    const past = totalsWith({
      cash: { debit: 2 ** 53 - 1, credit: 0 },
      overpayment: { debit: 1, credit: 0 },
      loan_principal: { debit: 0, credit: 2 ** 53 },
    });
    expect(reason(() => trialBalance(past))).toBe('LOAN_MATH_OVERFLOW');
  });

  it('refuses a posting, a ledger or a schedule in force outside the range', () => {
    const line = {
      account: 'cash' as const,
      debit: MAX_LOAN_TURNOVER + 1,
      credit: 0,
      component: null,
      instalmentId: null,
    };
    expect(reason(() => checkPostingRange(1, [line]))).toBe('LOAN_MATH_OVERFLOW');
    expect(reason(() => checkPostingRange(MAX_LOAN_TURNOVER + 1, []))).toBe('LOAN_MATH_OVERFLOW');
    expect(reason(() => checkPostingRange(MAX_LOAN_TURNOVER, [{ ...line, debit: 5 }]))).toBeNull();

    const full = totalsWith({
      cash: { debit: MAX_LOAN_TURNOVER - 1, credit: 0 },
      fee_receivable: { debit: 1, credit: 0 },
    });
    expect(turnoverOf(full)).toBe(BigInt(MAX_LOAN_TURNOVER));
    expect(reason(() => checkPositionRange(full, []))).toBeNull();
    const over = totalsWith({
      cash: { debit: MAX_LOAN_TURNOVER, credit: 0 },
      fee_receivable: { debit: 1, credit: 0 },
    });
    expect(reason(() => checkPositionRange(over, []))).toBe('LOAN_MATH_OVERFLOW');

    const row = { principal: 5e14, interest: 0, fees: 0 };
    expect(reason(() => checkPositionRange(totalsWith({}), [row, row]))).toBeNull();
    expect(reason(() => checkPositionRange(totalsWith({}), [row, { ...row, fees: 1 }]))).toBe(
      'LOAN_MATH_OVERFLOW',
    );
  });
});
