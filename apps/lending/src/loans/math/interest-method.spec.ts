import {
  type DayCount,
  type Instalment,
  type ScheduleInput,
  accrualToPost,
  annuityPaymentOf,
  dailyAccrual,
  generateSchedule,
  interestBetween,
  periodInterest,
  reschedule,
} from './index';

// Reference numbers are computed by hand (Python `fractions`), as written next to each.
const brief = (rows: Instalment[]) =>
  rows.map((r) => [r.dueDate, r.days, r.principal, r.interest, r.total, r.balanceAfter]);

/** 100,000.00 at 12% ACT/365F over 3 months from 2024-01-15 (loan-math.md, "Interest method"). */
const loan: ScheduleInput = {
  principal: 10_000_000,
  annualRate: '12',
  termCount: 3,
  frequency: 'monthly',
  scheduleType: 'annuity',
  dayCount: 'ACT/365F',
  disbursementDate: '2024-01-15',
  interestMethod: 'day-count',
};

// PMT(1%, 3, -100000) = 34002.211148... -> 34,002.21 (i = 12%/12 = 1%, whatever the method).
// 1: 31 days, 10,000,000 * 0.12 * 31/365 = 101917.808... -> 101,918; principal 3,400,221 - 101,918.
// 2: 29 days, 6,701,697 * 0.12 * 29/365 = 63895.631... -> 63,896; principal 3,336,325.
// 3: 31 days, 3,365,372 * 0.12 * 31/365 = 34299.133... -> 34,299; principal the remaining 3,365,372.
const DAY_COUNT_ROWS = [
  ['2024-02-15', 31, 3_298_303, 101_918, 3_400_221, 6_701_697],
  ['2024-03-15', 29, 3_336_325, 63_896, 3_400_221, 3_365_372],
  ['2024-04-15', 31, 3_365_372, 34_299, 3_399_671, 0],
];

describe("interest method 'day-count': an annuity billed by the days of each period", () => {
  it('reproduces the worked example: the instalment from r/12, interest by ACT/365F, the last the remainder', () => {
    expect(annuityPaymentOf(10_000_000, '12', 3, 'monthly')).toBe(3_400_221);
    expect(brief(generateSchedule(loan))).toEqual(DAY_COUNT_ROWS);
    // 'periodic' (the default) bills 1% of the balance whatever the days: 1,000.00, 669.98, 336.66.
    expect(brief(generateSchedule({ ...loan, interestMethod: undefined }))).toEqual([
      ['2024-02-15', 31, 3_300_221, 100_000, 3_400_221, 6_699_779],
      ['2024-03-15', 29, 3_333_223, 66_998, 3_400_221, 3_366_556],
      ['2024-04-15', 31, 3_366_556, 33_666, 3_400_222, 0],
    ]);
  });

  it('every period is balance x rate x yf rounded, and every instalment but the last is PMT', () => {
    for (const dayCount of ['ACT/365F', 'ACT/ACT', 'ACT/360', '30E/360 ISDA'] as DayCount[]) {
      const input = { ...loan, dayCount, termCount: 12, disbursementDate: '2023-11-30' };
      const rows = generateSchedule(input);
      const pmt = annuityPaymentOf(input.principal, input.annualRate, 12, 'monthly');
      const maturity = rows[rows.length - 1].dueDate;
      rows.forEach((r, k) => {
        const opening = r.principal + r.balanceAfter;
        expect(r.interest).toBe(
          interestBetween(opening, '12', r.periodStart, r.dueDate, dayCount, undefined, maturity).rounded,
        );
        if (k < rows.length - 1) expect(r.total).toBe(pmt);
      });
      expect(rows[rows.length - 1].balanceAfter).toBe(0);
    }
  });

  it('under 30/360 with due days below the 29th it bills what the periodic method bills', () => {
    const excel = {
      ...loan,
      principal: 1_000_000,
      annualRate: '8',
      termCount: 10,
      dayCount: '30/360' as const,
    };
    expect(generateSchedule(excel)).toEqual(generateSchedule({ ...excel, interestMethod: 'periodic' }));
  });

  it('periodInterest bills each instalment as the schedule does, so the accruals need no true-up', () => {
    const rows = generateSchedule({ ...loan, termCount: 7, firstDueDate: '2024-03-01' });
    for (const r of rows) {
      const terms = { scheduleType: 'annuity', dayCount: 'ACT/365F', frequency: 'monthly' } as const;
      const billed = periodInterest(r.principal + r.balanceAfter, '12', r.periodStart, r.dueDate, {
        ...terms,
        interestMethod: 'day-count',
      });
      expect(billed.rounded).toBe(r.interest);
      // The days of the period, accrued one by one from its start, post exactly that.
      let cumulative = '0';
      let posted = 0;
      for (let d = 0; d < r.days; d++) {
        const day = new Date(Date.parse(`${r.periodStart}T00:00:00Z`) + d * 86_400_000)
          .toISOString()
          .slice(0, 10);
        const today = dailyAccrual(r.principal + r.balanceAfter, '12', day, 'ACT/365F', {
          periodStart: r.periodStart,
        });
        const step = accrualToPost(cumulative, today.exact);
        cumulative = step.exactCumulative;
        posted += step.post;
      }
      expect(posted).toBe(r.interest);
    }
  });

  it('a reschedule keeps the method: the regenerated periods are billed by their days too', () => {
    const rows = generateSchedule({ ...loan, termCount: 6 });
    const remaining = {
      principal: rows[1].balanceAfter - 2_000_000,
      fromDate: rows[1].dueDate,
      annualRate: '12',
      frequency: 'monthly' as const,
      scheduleType: 'annuity' as const,
      dayCount: 'ACT/365F' as const,
      interestMethod: 'day-count' as const,
      instalments: rows.slice(2),
    };
    const pmt = annuityPaymentOf(remaining.principal, '12', 4, 'monthly');
    for (const next of [
      reschedule(remaining, { kind: 'prepayment', mode: 'reduce-instalment' }),
      reschedule(remaining, { kind: 'prepayment', mode: 'reduce-term' }),
      reschedule(remaining, { kind: 'holiday', periods: 1 }),
    ]) {
      expect(next.reduce((s, r) => s + r.principal, 0)).toBe(remaining.principal);
      expect(next[next.length - 1].balanceAfter).toBe(0);
    }
    const reduced = reschedule(remaining, { kind: 'prepayment', mode: 'reduce-instalment' });
    reduced.forEach((r, k) => {
      expect(r.interest).toBe(
        interestBetween(r.principal + r.balanceAfter, '12', r.periodStart, r.dueDate, 'ACT/365F').rounded,
      );
      if (k < reduced.length - 1) expect(r.total).toBe(pmt);
    });
    // A holiday period's interest is its days' (2024-03-15 -> 2024-04-15, 31 days), deferred to the next.
    const holiday = reschedule(remaining, { kind: 'holiday', periods: 1 });
    const deferred = interestBetween(
      remaining.principal,
      '12',
      '2024-03-15',
      '2024-04-15',
      'ACT/365F',
    ).rounded;
    const own = interestBetween(remaining.principal, '12', '2024-04-15', '2024-05-15', 'ACT/365F').rounded;
    expect([holiday[0].total, holiday[1].interest]).toEqual([0, deferred + own]);
    // The periodic method on the same loan bills 1% a month instead: the method is not lost.
    const periodic = reschedule(
      { ...remaining, interestMethod: 'periodic' },
      { kind: 'prepayment', mode: 'reduce-instalment' },
    );
    expect(periodic[0].interest).toBe(Math.round(remaining.principal / 100));
  });
});

describe('30E/360 ISDA: the termination date is the loan maturity (the last due date)', () => {
  it('counts the last period to a February maturity with its own day number', () => {
    // 1,200,000 at 12%, differentiated, from 2024-11-30: due 2024-12-30, 2025-01-30, 2025-02-28.
    // 30 days, 30 days, then 2025-01-30 -> 2025-02-28 at maturity: D2 stays 28, 30 + 28 - 30 = 28 days.
    // Interest 12,000; 8,000; 400,000 * 0.12 * 28/360 = 3,733.33 -> 3,733 (a mid-schedule February end
    // would count 30 days: 4,000).
    const rows = generateSchedule({
      principal: 1_200_000,
      annualRate: '12',
      termCount: 3,
      frequency: 'monthly',
      scheduleType: 'differentiated',
      dayCount: '30E/360 ISDA',
      disbursementDate: '2024-11-30',
    });
    expect(rows.map((r) => [r.dueDate, r.interest])).toEqual([
      ['2024-12-30', 12_000],
      ['2025-01-30', 8_000],
      ['2025-02-28', 3_733],
    ]);
    expect(
      periodInterest(400_000, '12', '2025-01-30', '2025-02-28', {
        scheduleType: 'differentiated',
        dayCount: '30E/360 ISDA',
        frequency: 'monthly',
        terminationDate: '2025-02-28',
      }).rounded,
    ).toBe(3_733);
  });

  it('reduce-term: the instalment that repays the balance is the maturity and is counted to it', () => {
    // 300,000 at 12% from 2024-11-30, level 103,000, day-count annuity on 30E/360 ISDA:
    // Dec 31: 30 days, 3,000 interest, principal 100,000 -> 200,000; Jan 31: 30 days, 2,000, principal
    // 101,000 -> 99,000; Feb 28 repays the 99,000: the maturity, D2 stays 28, 28 days = 924.
    const next = reschedule(
      {
        principal: 300_000,
        fromDate: '2024-11-30',
        annualRate: '12',
        frequency: 'monthly',
        scheduleType: 'annuity',
        dayCount: '30E/360 ISDA',
        interestMethod: 'day-count',
        instalments: ['2024-12-31', '2025-01-31', '2025-02-28', '2025-03-31', '2025-04-30'].map(
          (dueDate, k) => ({
            number: k + 2,
            dueDate,
            principal: 0,
            interest: 0,
          }),
        ),
      },
      { kind: 'prepayment', mode: 'reduce-term', levelAmount: 103_000 },
    );
    expect(next.map((r) => [r.dueDate, r.principal, r.interest])).toEqual([
      ['2024-12-31', 100_000, 3_000],
      ['2025-01-31', 101_000, 2_000],
      ['2025-02-28', 99_000, 924],
    ]);
  });
});
