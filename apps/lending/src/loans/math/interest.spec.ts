import { LoanMathErrorCode } from './errors';
import { accrualToPost, dailyAccrual, days30360, interestBetween, yearFraction } from './index';

// Reference numbers below are computed independently with Python `fractions` and `datetime`
// (the derivation is written next to each), never with this module.
describe('day counts and interestBetween: 10,000.00 (1,000,000 minor units) at 8%', () => {
  it('30/360: 2024-01-31 -> 2024-03-31 is 60 days (D1 31->30, D2 31->30 because D1 >= 30)', () => {
    // 360*0 + 30*(3-1) + (30-30) = 60; 1,000,000 * 0.08 * 60/360 = 40000/3 = 13333.333...
    expect(days30360('2024-01-31', '2024-03-31')).toBe(60);
    expect(interestBetween(1_000_000, '8', '2024-01-31', '2024-03-31', '30/360')).toEqual({
      exact: '13333.333333333333',
      rounded: 13333,
    });
  });

  it('30/360: 2024-02-28 -> 2024-03-31 is 33 days (D2 stays 31 because D1 = 28 < 30)', () => {
    // 30*(3-2) + (31-28) = 33; 1,000,000 * 0.08 * 33/360 = 22000/3 = 7333.333...
    expect(days30360('2024-02-28', '2024-03-31')).toBe(33);
    expect(interestBetween(1_000_000, '8', '2024-02-28', '2024-03-31', '30/360')).toEqual({
      exact: '7333.333333333333',
      rounded: 7333,
    });
  });

  it('30/360: a whole month between the same day numbers is always 30 days', () => {
    expect(days30360('2025-01-15', '2025-02-15')).toBe(30);
    expect(days30360('2024-02-15', '2024-03-15')).toBe(30);
    expect(days30360('2024-12-15', '2025-01-15')).toBe(30);
    expect(days30360('2025-03-30', '2025-03-31')).toBe(0);
  });

  it('ACT/365F: 2024-02-01 -> 2024-03-01 is 29/365 even in a leap year', () => {
    // 1,000,000 * 0.08 * 29/365 = 464000/73 = 6356.164383561643835...
    expect(interestBetween(1_000_000, '8', '2024-02-01', '2024-03-01', 'ACT/365F')).toEqual({
      exact: '6356.164383561644',
      rounded: 6356,
    });
    // 2024-01-01 -> 2024-12-31: 365 actual days = exactly one year's 80,000.
    expect(interestBetween(1_000_000, '8', '2024-01-01', '2024-12-31', 'ACT/365F').exact).toBe(
      '80000.000000000000',
    );
  });

  it('ACT/ACT ISDA: 2023-12-15 -> 2024-03-15 splits at the year end (17/365 + 74/366)', () => {
    // 2023-12-15..2023-12-31 = 17 days of a 365-day year; 2024-01-01..2024-03-14 = 31+29+14 = 74 days of a
    // 366-day year. 80,000 * (17/365 + 74/366) = 265856000/13359 = 19900.890785238415...
    expect(yearFraction('2023-12-15', '2024-03-15', 'ACT/ACT')).toBe('0.248761134815');
    expect(interestBetween(1_000_000, '8', '2023-12-15', '2024-03-15', 'ACT/ACT')).toEqual({
      exact: '19900.890785238416',
      rounded: 19901,
    });
    // Within 2024 only: 29/366 -> 1160000/183 = 6338.797814207650...
    expect(interestBetween(1_000_000, '8', '2024-02-01', '2024-03-01', 'ACT/ACT').rounded).toBe(6339);
  });

  it('rounds with the named mode and allows an empty interval', () => {
    expect(interestBetween(1_000_000, '8', '2024-01-31', '2024-03-31', '30/360', 'up').rounded).toBe(13334);
    expect(interestBetween(1_000_000, '8', '2024-03-01', '2024-03-01', 'ACT/ACT')).toEqual({
      exact: '0.000000000000',
      rounded: 0,
    });
  });

  it.each([
    [
      () => interestBetween(1_000_000, '8', '2024-03-02', '2024-03-01', 'ACT/ACT'),
      LoanMathErrorCode.INVALID_DATE,
    ],
    [
      () => interestBetween(1_000_000, '8', '2023-02-29', '2023-03-01', 'ACT/ACT'),
      LoanMathErrorCode.INVALID_DATE,
    ],
    [
      () => interestBetween(1_000_000, '8', '2024-1-01', '2024-03-01', 'ACT/ACT'),
      LoanMathErrorCode.INVALID_DATE,
    ],
    [
      () => interestBetween(1.5, '8', '2024-01-01', '2024-03-01', 'ACT/ACT'),
      LoanMathErrorCode.INVALID_AMOUNT,
    ],
    [() => interestBetween(1, '8%', '2024-01-01', '2024-03-01', 'ACT/ACT'), LoanMathErrorCode.INVALID_RATE],
    [
      () => interestBetween(1, '8', '2024-01-01', '2024-03-01', 'ACT/364' as never),
      LoanMathErrorCode.INVALID_OPTION,
    ],
  ])('refuses bad input %#', (call, code) => {
    expect(call).toThrow(expect.objectContaining({ code }));
  });
});

describe('daily accrual', () => {
  it('is one day of interest by the day count', () => {
    // ACT/365F: 1,000,000 * 0.08 / 365 = 219.178082191780821...
    expect(dailyAccrual(1_000_000, '8', '2024-05-10', 'ACT/365F')).toEqual({
      exact: '219.178082191781',
      rounded: 219,
    });
    // ACT/ACT in a leap year: 80,000 / 366 = 218.579234972677...
    expect(dailyAccrual(1_000_000, '8', '2024-05-10', 'ACT/ACT').exact).toBe('218.579234972678');
    // 30/360: Feb 28 -> Mar 1 of a common year counts 3 days; the 30th -> 31st counts 0.
    expect(dailyAccrual(1_000_000, '8', '2025-02-28', '30/360').exact).toBe('666.666666666667');
    expect(dailyAccrual(1_000_000, '8', '2025-03-30', '30/360').exact).toBe('0.000000000000');
  });

  it('with periodStart, the daily amounts of a period add up to the period interest even under 30/360', () => {
    // 2025-02-28 -> 2025-03-31 is 33 days under 30/360 (D2 stays 31 as D1 = 28), but its single days
    // count 32: Feb 28 -> Mar 1 is 3, Mar 1 .. Mar 29 one each (29), Mar 30 -> Mar 31 is 0.
    const days: string[] = [];
    for (let d = Date.UTC(2025, 1, 28); d < Date.UTC(2025, 2, 31); d += 86_400_000) {
      days.push(new Date(d).toISOString().slice(0, 10));
    }
    let cumulative = '0';
    let posted = 0;
    for (const day of days) {
      const today = dailyAccrual(1_000_000, '8', day, '30/360', { periodStart: '2025-02-28' });
      const step = accrualToPost(cumulative, today.exact);
      cumulative = step.exactCumulative;
      posted += step.post;
    }
    const period = interestBetween(1_000_000, '8', '2025-02-28', '2025-03-31', '30/360');
    expect(cumulative).toBe(period.exact);
    const naive = days.reduce(
      (sum, day) => sum + Number(dailyAccrual(1_000_000, '8', day, '30/360').exact),
      0,
    );
    expect(Math.round(naive)).toBe(Math.round((1_000_000 * 0.08 * 32) / 360)); // 7111, not 7333
    expect(posted).toBe(period.rounded);
  });

  it('refuses a periodStart after the date', () => {
    expect(() => dailyAccrual(1, '8', '2025-01-01', 'ACT/365F', { periodStart: '2025-01-02' })).toThrow(
      expect.objectContaining({ code: LoanMathErrorCode.INVALID_DATE, field: 'periodStart' }),
    );
  });
});

describe('accrualToPost', () => {
  it('posts the rounded difference of exact cumulative amounts, so a year of daily posts never drifts', () => {
    // 1,000,000 at 8% ACT/365F for 365 days is exactly 80,000; each day is 219.178..., which rounds
    // to 219 and would lose 65 minor units a year if rounded day by day.
    let cumulative = '0.000000000000';
    let posted = 0;
    const posts = new Set<number>();
    for (let i = 0; i < 365; i++) {
      const step = accrualToPost(cumulative, dailyAccrual(1_000_000, '8', '2025-01-01', 'ACT/365F').exact);
      cumulative = step.exactCumulative;
      posted += step.post;
      posts.add(step.post);
    }
    expect(posted).toBe(80_000);
    expect([...posts].sort()).toEqual([219, 220]);
    expect(cumulative).toBe('80000.000000000065'); // 365 * 219.178082191781 (each day kept to 12 places)
  });

  it('adds exactly at the larger scale and handles corrections', () => {
    expect(accrualToPost('0.4', '0.1')).toEqual({ exactCumulative: '0.500000000000', post: 1 });
    expect(accrualToPost('0.4', '0.1', 'half-even')).toEqual({ exactCumulative: '0.500000000000', post: 0 });
    expect(accrualToPost('10.6', '-0.2')).toEqual({ exactCumulative: '10.400000000000', post: -1 });
    expect(accrualToPost('1.00000000000000000001', '0')).toEqual({
      exactCumulative: '1.00000000000000000001',
      post: 0,
    });
  });
});
