import type { PositionRow } from '../payments/payment-plan';
import {
  interestSides,
  isPaying,
  nextDay,
  overdueMoves,
  pastDue,
  penaltyBase,
  periodOf,
  previousDay,
} from './accrual-plan';

const row = (
  number: number,
  periodStart: string,
  dueDate: string,
  amounts: { principal: number; interest: number; fees?: number; balanceAfter: number },
  paid = { principal: 0, interest: 0, fees: 0 },
): PositionRow => ({
  id: `i${number}`,
  number,
  periodStart,
  dueDate,
  principal: amounts.principal,
  interest: amounts.interest,
  fees: amounts.fees ?? 0,
  balanceAfter: amounts.balanceAfter,
  paid,
});

const rows = [
  row(1, '2026-01-15', '2026-02-15', { principal: 300, interest: 30, fees: 5, balanceAfter: 700 }),
  row(2, '2026-02-15', '2026-03-15', { principal: 340, interest: 21, balanceAfter: 360 }),
  row(3, '2026-03-15', '2026-04-15', { principal: 360, interest: 11, balanceAfter: 0 }),
];

describe('the accruals job for one day', () => {
  it('counts days across month and year ends', () => {
    expect([nextDay('2024-02-28'), nextDay('2024-02-29'), nextDay('2026-12-31')]).toEqual([
      '2024-02-29',
      '2024-03-01',
      '2027-01-01',
    ]);
    expect(previousDay('2026-03-01')).toBe('2026-02-28');
  });

  it("finds the period a day's interest belongs to: from its start, up to the day before its due date", () => {
    expect(periodOf(rows, '2026-01-15')?.number).toBe(1);
    expect(periodOf(rows, '2026-02-14')?.number).toBe(1);
    expect(periodOf(rows, '2026-02-15')?.number).toBe(2);
    expect(periodOf(rows, '2026-04-15')).toBeNull();
    expect(periodOf(rows, '2026-01-14')).toBeNull();
    expect(isPaying(row(1, '2026-01-01', '2026-02-01', { principal: 0, interest: 0, balanceAfter: 9 }))).toBe(
      false,
    );
  });

  it('moves to overdue only what instalments due before the day still owe and is not there yet', () => {
    expect(overdueMoves(rows, '2026-02-15', new Map())).toEqual([]);
    expect(overdueMoves(rows, '2026-02-16', new Map())).toEqual([
      { instalmentId: 'i1', number: 1, dueDate: '2026-02-15', principal: 300, interest: 30 },
    ]);
    // Partly paid, partly moved already: only the difference moves, nothing twice.
    const partly = [
      row(
        1,
        '2026-01-15',
        '2026-02-15',
        { principal: 300, interest: 30, balanceAfter: 700 },
        {
          principal: 100,
          interest: 30,
          fees: 0,
        },
      ),
      ...rows.slice(1),
    ];
    const there = new Map([['i1', { principal: 150, interest: 0 }]]);
    expect(overdueMoves(partly, '2026-03-20', there)).toEqual([
      { instalmentId: 'i1', number: 1, dueDate: '2026-02-15', principal: 50, interest: 0 },
      { instalmentId: 'i2', number: 2, dueDate: '2026-03-15', principal: 340, interest: 21 },
    ]);
    const all = new Map([
      ['i1', { principal: 200, interest: 0 }],
      ['i2', { principal: 340, interest: 21 }],
    ]);
    expect(overdueMoves(partly, '2026-03-20', all)).toEqual([]);
  });

  it('charges penalties on unpaid principal and interest past the grace days, never on fees', () => {
    expect(pastDue(rows, '2026-02-16')).toBe(335);
    expect(penaltyBase(rows, '2026-02-16', 0)).toBe(330);
    expect(penaltyBase(rows, '2026-02-18', 3)).toBe(0);
    expect(penaltyBase(rows, '2026-02-19', 3)).toBe(330);
    expect(penaltyBase(rows, '2026-03-20', 3)).toBe(330 + 361);
    expect(penaltyBase(rows, '2026-02-15', 0)).toBe(0);
  });

  it('books interest out of what was paid ahead first, and takes income back from the receivable first', () => {
    expect(interestSides(100, { interest_receivable: 0, interest_advance: 60 })).toEqual({
      advance: 60,
      receivable: 40,
    });
    expect(interestSides(100, { interest_receivable: 5, interest_advance: 0 })).toEqual({
      advance: 0,
      receivable: 100,
    });
    expect(interestSides(-100, { interest_receivable: 70, interest_advance: 0 })).toEqual({
      advance: 30,
      receivable: 70,
    });
  });
});
