import { LoanMathErrorCode } from './errors';
import { type Instalment, type RemainingLoan, generateSchedule, reschedule } from './index';

// The Excel loan (10,000.00 at 8%/12, 10 months from 2025-01-15, 30/360) after instalment 3 is paid on
// its due date 2025-04-15: balance 706,947, instalments 4..10 still to come.
const original = generateSchedule({
  principal: 1_000_000,
  annualRate: '8',
  termCount: 10,
  frequency: 'monthly',
  scheduleType: 'annuity',
  dayCount: '30/360',
  disbursementDate: '2025-01-15',
});
const rest = original.slice(3);
const state = (patch: Partial<RemainingLoan> = {}): RemainingLoan => ({
  principal: 706_947,
  fromDate: '2025-04-15',
  annualRate: '8',
  frequency: 'monthly',
  scheduleType: 'annuity',
  dayCount: '30/360',
  instalments: rest,
  ...patch,
});
const brief = (rows: Instalment[]) =>
  rows.map((r) => [r.number, r.dueDate, r.principal, r.interest, r.balanceAfter]);

// References computed independently with Python `fractions` (i = 0.08/12 = 1/150).
describe('reschedule', () => {
  it('with nothing changed, reduce-instalment regenerates the same remaining schedule', () => {
    const again = reschedule(state(), { kind: 'prepayment', mode: 'reduce-instalment' });
    expect(brief(again)).toEqual(brief(rest));
  });

  it('early repayment of 3,000.00 on a due date, reduce-instalment: PMT(406,947, 1/150, 7) = 596.96', () => {
    const rows = reschedule(state({ principal: 406_947 }), { kind: 'prepayment', mode: 'reduce-instalment' });
    expect(brief(rows)).toEqual([
      [4, '2025-05-15', 56983, 2713, 349964],
      [5, '2025-06-15', 57363, 2333, 292601],
      [6, '2025-07-15', 57745, 1951, 234856],
      [7, '2025-08-15', 58130, 1566, 176726],
      [8, '2025-09-15', 58518, 1178, 118208],
      [9, '2025-10-15', 58908, 788, 59300],
      [10, '2025-11-15', 59300, 395, 0],
    ]);
    expect(rows.every((r) => r.principal + r.interest <= 59696 || r.number === 10)).toBe(true);
  });

  it('early repayment of 3,000.00, reduce-term: keeps 1,037.03 and finishes after 4 instalments', () => {
    const rows = reschedule(state({ principal: 406_947 }), { kind: 'prepayment', mode: 'reduce-term' });
    expect(brief(rows)).toEqual([
      [4, '2025-05-15', 100990, 2713, 305957],
      [5, '2025-06-15', 101663, 2040, 204294],
      [6, '2025-07-15', 102341, 1362, 101953],
      [7, '2025-08-15', 101953, 680, 0],
    ]);
    // An explicit level amount wins over the one read from the schedule.
    const explicit = reschedule(state({ principal: 406_947 }), {
      kind: 'prepayment',
      mode: 'reduce-term',
      levelAmount: 103_703,
    });
    expect(brief(explicit)).toEqual(brief(rows));
  });

  it('mid-period early repayment: a broken first period from fromDate plus the interest accrued before it', () => {
    // Repaid on 2025-05-01: 2025-05-01 -> 2025-05-15 is 14 days (30/360) on 406,947:
    // 406,947 * 0.08 * 14/360 = 1266.06 -> 1266; the caller's accrual for 2025-04-15 -> 2025-05-01 on
    // 706,947 (16 days: 2513.59 -> 2514) is added.
    const rows = reschedule(state({ principal: 406_947, fromDate: '2025-05-01', accruedInterest: 2514 }), {
      kind: 'prepayment',
      mode: 'reduce-instalment',
    });
    expect(rows[0]).toMatchObject({
      periodStart: '2025-05-01',
      days: 14,
      principal: 56983,
      interest: 1266 + 2514,
    });
    expect(rows.slice(1).map((r) => r.interest)).toEqual([2333, 1951, 1566, 1178, 788, 395]);
  });

  it('payment holiday of 2 periods: nothing due, interest deferred (not capitalised), term + 2', () => {
    // Deferred: 2 * 706,947/150 = 9425.96 -> 9426, due with instalment 6 on top of its own 4713.
    const rows = reschedule(state(), { kind: 'holiday', periods: 2 });
    expect(brief(rows)).toEqual([
      [4, '2025-05-15', 0, 0, 706947],
      [5, '2025-06-15', 0, 0, 706947],
      [6, '2025-07-15', 98990, 14139, 607957],
      [7, '2025-08-15', 99650, 4053, 508307],
      [8, '2025-09-15', 100314, 3389, 407993],
      [9, '2025-10-15', 100983, 2720, 307010],
      [10, '2025-11-15', 101656, 2047, 205354],
      [11, '2025-12-15', 102334, 1369, 103020],
      [12, '2026-01-15', 103020, 687, 0],
    ]);
  });

  it("payment holiday with 'spread': the deferred 9,426 in seven parts (1,347 x 6 + 1,344)", () => {
    const rows = reschedule(state(), { kind: 'holiday', periods: 2, deferredInterest: 'spread' });
    const own = [4713, 4053, 3389, 2720, 2047, 1369, 687];
    expect(rows.slice(2).map((r, k) => r.interest - own[k])).toEqual([
      1347, 1347, 1347, 1347, 1347, 1347, 1344,
    ]);
  });

  it('restructuring: 5% over 12 new instalments, due dates continued on the grid', () => {
    // PMT(706,947, 0.05/12, 12) = 60519.5 -> 60520 (Python fractions); first interest 2945.61 -> 2946.
    const rows = reschedule(state(), { kind: 'restructure', annualRate: '5', termCount: 12 });
    expect(rows).toHaveLength(12);
    expect(brief(rows)[0]).toEqual([4, '2025-05-15', 57574, 2946, 649373]);
    expect(brief(rows)[11]).toEqual([15, '2026-04-15', 60268, 251, 0]);
    expect(rows.slice(0, 11).every((r) => r.principal + r.interest === 60520)).toBe(true);
  });

  it('restructuring to another type, frequency and first due date', () => {
    const rows = reschedule(state(), {
      kind: 'restructure',
      scheduleType: 'differentiated',
      frequency: 'quarterly',
      termCount: 3,
      firstDueDate: '2025-07-01',
      dayCount: 'ACT/365F',
    });
    expect(rows.map((r) => [r.dueDate, r.principal])).toEqual([
      ['2025-07-01', 235649],
      ['2025-10-01', 235649],
      ['2026-01-01', 235649],
    ]);
    // 706,947 * 0.08 * 77/365 (2025-04-15 -> 2025-07-01) = 11930.94 -> 11931.
    expect(rows[0].interest).toBe(11931);
  });

  it('extends a month-end grid from the anchor', () => {
    const monthEnd = generateSchedule({
      principal: 1_000_000,
      annualRate: '8',
      termCount: 3,
      frequency: 'monthly',
      scheduleType: 'annuity',
      dayCount: '30/360',
      disbursementDate: '2025-01-31',
    });
    expect(monthEnd.map((r) => r.dueDate)).toEqual(['2025-02-28', '2025-03-31', '2025-04-30']);
    const base = state({
      fromDate: '2025-02-28',
      principal: monthEnd[0].balanceAfter,
      instalments: monthEnd.slice(1),
    });
    expect(reschedule(base, { kind: 'holiday', periods: 2 }).map((r) => r.dueDate)).toEqual([
      '2025-03-31',
      '2025-04-30',
      '2025-05-31',
      '2025-06-30',
    ]);
    const last = state({ fromDate: '2025-03-31', principal: 1000, instalments: monthEnd.slice(2) });
    expect(reschedule(last, { kind: 'holiday', periods: 1 }).map((r) => r.dueDate)).toEqual([
      '2025-04-30',
      '2025-05-30',
    ]);
    expect(
      reschedule({ ...last, anchorDate: '2025-01-31' }, { kind: 'holiday', periods: 1 }).map(
        (r) => r.dueDate,
      ),
    ).toEqual(['2025-04-30', '2025-05-31']);
  });

  it('differentiated reduce-term keeps the principal part; bullet keeps the maturity', () => {
    // 12,000.00 at 12% 30/360 over 6 months, 2 paid (balance 8,000.00), 3,000.00 repaid early on the
    // due date: 5,000.00 left; the part stays 2,000.00 -> 2,000 + 2,000 + 1,000, interest 1% a month.
    const diff = generateSchedule({
      principal: 1_200_000,
      annualRate: '12',
      termCount: 6,
      frequency: 'monthly',
      scheduleType: 'differentiated',
      dayCount: '30/360',
      disbursementDate: '2025-01-15',
    });
    const base = state({
      principal: 500_000,
      fromDate: '2025-03-15',
      annualRate: '12',
      scheduleType: 'differentiated',
      instalments: diff.slice(2),
    });
    expect(brief(reschedule(base, { kind: 'prepayment', mode: 'reduce-term' }))).toEqual([
      [3, '2025-04-15', 200000, 5000, 300000],
      [4, '2025-05-15', 200000, 3000, 100000],
      [5, '2025-06-15', 100000, 1000, 0],
    ]);
    expect(
      reschedule(base, { kind: 'prepayment', mode: 'reduce-instalment' }).map((r) => r.principal),
    ).toEqual([125000, 125000, 125000, 125000]);
    const bullet = reschedule(
      { ...base, scheduleType: 'bullet' },
      { kind: 'prepayment', mode: 'reduce-term' },
    );
    expect(bullet.map((r) => [r.principal, r.interest])).toEqual([
      [0, 5000],
      [0, 5000],
      [0, 5000],
      [500000, 5000],
    ]);
  });

  it.each([
    [state({ principal: 0 }), { kind: 'holiday', periods: 1 }, LoanMathErrorCode.INVALID_AMOUNT, 'principal'],
    [
      state({ fromDate: '2025-05-15' }),
      { kind: 'holiday', periods: 1 },
      LoanMathErrorCode.INVALID_DATE,
      'instalments[0].dueDate',
    ],
    [
      state({ instalments: [] }),
      { kind: 'holiday', periods: 1 },
      LoanMathErrorCode.INVALID_TERM,
      'instalments',
    ],
    [
      state({ instalments: [rest[1], rest[0]] }),
      { kind: 'holiday', periods: 1 },
      LoanMathErrorCode.INVALID_DATE,
      'instalments[1].dueDate',
    ],
    [state(), { kind: 'holiday', periods: 0 }, LoanMathErrorCode.INVALID_TERM, 'periods'],
    [state(), { kind: 'holiday', periods: 121 }, LoanMathErrorCode.INVALID_TERM, 'periods'],
    [state(), { kind: 'prepayment', mode: 'reduce-both' }, LoanMathErrorCode.INVALID_OPTION, 'change.mode'],
    [
      state(),
      { kind: 'prepayment', mode: 'reduce-term', levelAmount: 0 },
      LoanMathErrorCode.INVALID_AMOUNT,
      'levelAmount',
    ],
    [
      state(),
      { kind: 'restructure', firstDueDate: '2025-04-15' },
      LoanMathErrorCode.INVALID_DATE,
      'change.firstDueDate',
    ],
    [state(), { kind: 'restructure', annualRate: 'x' }, LoanMathErrorCode.INVALID_RATE, 'change.annualRate'],
    [
      state(),
      { kind: 'restructure', termCount: 3, gracePrincipal: 3 },
      LoanMathErrorCode.INVALID_TERM,
      'gracePrincipal',
    ],
    [state(), { kind: 'refinance' }, LoanMathErrorCode.INVALID_OPTION, 'change.kind'],
    [
      state({ accruedInterest: -1 }),
      { kind: 'holiday', periods: 1 },
      LoanMathErrorCode.INVALID_AMOUNT,
      'accruedInterest',
    ],
  ])('refuses bad input %#', (remaining, change, code, field) => {
    expect(() => reschedule(remaining, change as never)).toThrow(expect.objectContaining({ code, field }));
  });
});
