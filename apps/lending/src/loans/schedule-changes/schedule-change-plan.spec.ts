import type { PositionRow } from '../payments/payment-plan';
import { changeBase } from './schedule-change-plan';

const row = (
  number: number,
  periodStart: string,
  dueDate: string,
  principal: number,
  interest: number,
  balanceAfter: number,
  paid = { principal: 0, interest: 0, fees: 0 },
  fees = 0,
): PositionRow => ({
  id: `i${number}`,
  number,
  periodStart,
  dueDate,
  principal,
  interest,
  fees,
  balanceAfter,
  paid,
});

// 12 000.00 at 12% over 3 months, 30/360: interest 1% of the balance a month.
const rows = [
  row(1, '2026-01-15', '2026-02-15', 400_000, 12_000, 800_000, { principal: 0, interest: 0, fees: 0 }, 5_000),
  row(2, '2026-02-15', '2026-03-15', 400_000, 8_000, 400_000),
  row(3, '2026-03-15', '2026-04-15', 400_000, 4_000, 0),
];

describe('what a schedule change starts from', () => {
  it('replaces the instalments due after today, carrying the interest accrued in the current period', () => {
    // 10 days of instalment 2's period (30/360) on its 800 000: 800 000 x 1% / 3 = 2 666.67 -> 2 667.
    const paidFirst = [
      row(
        1,
        '2026-01-15',
        '2026-02-15',
        400_000,
        12_000,
        800_000,
        {
          principal: 400_000,
          interest: 12_000,
          fees: 5_000,
        },
        5_000,
      ),
      ...rows.slice(1),
    ];
    // The ledger holds what the current period accrued: 10 days (30/360) on its 800 000, 1% a month.
    const b = changeBase(paidFirst, '2026-02-25', 2_667, true, new Map());
    expect(b.replaced.map((r) => r.number)).toEqual([2, 3]);
    expect(b.folded).toEqual([]);
    expect([b.principal, b.carriedInterest, b.interestCredit, b.firstNumber]).toEqual([800_000, 2_667, 0, 2]);
    expect(b.fees).toEqual([]);
  });

  it('credits interest paid ahead beyond what accrued, and carries unpaid fees', () => {
    const ahead = [
      rows[0],
      row(2, '2026-02-15', '2026-03-15', 400_000, 8_000, 400_000, { principal: 0, interest: 8_000, fees: 0 }),
      rows[2],
    ];
    // Held: instalment 1's 12 000 past due, 2 667 accrued since, less the 8 000 paid ahead on instalment 2.
    const b = changeBase(ahead, '2026-02-25', 12_000 + 2_667 - 8_000, false, new Map());
    expect([b.carriedInterest, b.interestCredit]).toEqual([0, 8_000 - 2_667]);
    // Instalment 1 is past due and not folded: it stays, and the new ones number after it.
    expect(b.replaced.map((r) => r.number)).toEqual([2, 3]);
    expect(b.firstNumber).toBe(2);
  });

  it('folds what is past due in when asked: its principal, its interest carried, its fees due first', () => {
    const onOverdue = new Map([['i1', { principal: 400_000, interest: 12_000 }]]);
    const b = changeBase(rows, '2026-02-25', 12_000 + 2_667, true, onOverdue);
    expect(b.replaced.map((r) => r.number)).toEqual([1, 2, 3]);
    expect(b.folded).toEqual([{ row: rows[0], overdue: { principal: 400_000, interest: 12_000 } }]);
    expect([b.principal, b.carriedInterest, b.firstNumber]).toEqual([1_200_000, 12_000 + 2_667, 1]);
    expect(b.fees).toEqual([{ name: 'carried', amount: 5_000, dueWith: 'first' }]);
  });

  it('carries interest a replaced instalment bills from before its period (an earlier change carried it)', () => {
    // A restructuring today carried 12 000 to instalment 2 (interest 8 000 + 12 000); a second change the
    // same day finds it still held, billed by an instalment it replaces: carried again, not dropped.
    const carried = [rows[0], row(2, '2026-02-25', '2026-03-15', 400_000, 20_000, 400_000), rows[2]];
    const paidFirst = [{ ...carried[0], paid: { principal: 400_000, interest: 12_000, fees: 5_000 } }];
    const b = changeBase([...paidFirst, ...carried.slice(1)], '2026-02-25', 12_000, false, new Map());
    expect([b.carriedInterest, b.interestCredit]).toEqual([12_000, 0]);
  });
});
