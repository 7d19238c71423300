import fc from 'fast-check';
import {
  DAY_COUNTS,
  type DayCount,
  accrualToPost,
  dailyAccrual,
  dayCountDays,
  interestBetween,
  yearFraction,
} from './index';

// Published test vectors, each with its source. The worked examples of docs/lending/loan-math.md ("Day
// counts") are derived by hand next to each case (reference amounts with Python `fractions`).

type Vector = [from: string, to: string, days: number];

/**
 * ISDA, "30/360 Day Count Conventions" (2008-12-22, https://www.isda.org/2008/12/22/30-360-day-count-conventions/),
 * examples 1-3, as QuantLib's test suite carries them (test-suite/daycounters.cpp,
 * testThirty360_BondBasis / _EurobondBasis / _ISDA).
 */
const ISDA_EXAMPLE_1: Vector[] = [
  ['2006-08-20', '2007-02-20', 180],
  ['2007-02-20', '2007-08-20', 180],
  ['2007-08-20', '2008-02-20', 180],
  ['2008-02-20', '2008-08-20', 180],
  ['2008-08-20', '2009-02-20', 180],
  ['2009-02-20', '2009-08-20', 180],
];

const BOND_BASIS: Vector[] = [
  ...ISDA_EXAMPLE_1,
  ['2006-08-31', '2007-02-28', 178],
  ['2007-02-28', '2007-08-31', 183],
  ['2007-08-31', '2008-02-29', 179],
  ['2008-02-29', '2008-08-31', 182],
  ['2008-08-31', '2009-02-28', 178],
  ['2009-02-28', '2009-08-31', 183],
  ['2006-01-31', '2006-02-28', 28],
  ['2006-01-30', '2006-02-28', 28],
  ['2006-02-28', '2006-03-03', 5],
  ['2006-02-14', '2006-02-28', 14],
  ['2006-09-30', '2006-10-31', 30],
  ['2006-10-31', '2006-11-28', 28],
  ['2007-08-31', '2008-02-28', 178],
  ['2008-02-28', '2008-08-28', 180],
  ['2008-02-28', '2008-08-30', 182],
  ['2008-02-28', '2008-08-31', 183],
  ['2007-02-26', '2008-02-28', 362],
  ['2007-02-26', '2008-02-29', 363],
  ['2008-02-29', '2009-02-28', 359],
  ['2008-02-28', '2008-03-30', 32],
  ['2008-02-28', '2008-03-31', 33],
];

const EUROBOND_BASIS: Vector[] = [
  ...ISDA_EXAMPLE_1,
  ['2006-02-28', '2006-08-31', 182],
  ['2006-08-31', '2007-02-28', 178],
  ['2007-02-28', '2007-08-31', 182],
  ['2007-08-31', '2008-02-29', 179],
  ['2008-02-29', '2008-08-31', 181],
  ['2008-08-31', '2009-02-28', 178],
  ['2009-02-28', '2009-08-31', 182],
  ['2009-08-31', '2010-02-28', 178],
  ['2010-02-28', '2010-08-31', 182],
  ['2010-08-31', '2011-02-28', 178],
  ['2011-02-28', '2011-08-31', 182],
  ['2011-08-31', '2012-02-29', 179],
  ['2006-01-31', '2006-02-28', 28],
  ['2006-01-30', '2006-02-28', 28],
  ['2006-02-28', '2006-03-03', 5],
  ['2006-02-14', '2006-02-28', 14],
  ['2006-09-30', '2006-10-31', 30],
  ['2006-10-31', '2006-11-28', 28],
  ['2007-08-31', '2008-02-28', 178],
  ['2008-02-28', '2008-08-28', 180],
  ['2008-02-28', '2008-08-30', 182],
  ['2008-02-28', '2008-08-31', 182],
  ['2007-02-26', '2008-02-28', 362],
  ['2007-02-26', '2008-02-29', 363],
  ['2008-02-29', '2009-02-28', 359],
  ['2008-02-28', '2008-03-30', 32],
  ['2008-02-28', '2008-03-31', 32],
];

/** 30E/360 (ISDA): each example with the termination date ISDA gives it. */
const ISDA_30E: { termination: string; vectors: Vector[] }[] = [
  { termination: '2009-08-20', vectors: ISDA_EXAMPLE_1 },
  {
    termination: '2012-02-29',
    vectors: [
      ['2006-02-28', '2006-08-31', 180],
      ['2006-08-31', '2007-02-28', 180],
      ['2007-02-28', '2007-08-31', 180],
      ['2007-08-31', '2008-02-29', 180],
      ['2008-02-29', '2008-08-31', 180],
      ['2008-08-31', '2009-02-28', 180],
      ['2009-02-28', '2009-08-31', 180],
      ['2009-08-31', '2010-02-28', 180],
      ['2010-02-28', '2010-08-31', 180],
      ['2010-08-31', '2011-02-28', 180],
      ['2011-02-28', '2011-08-31', 180],
      // The last period ends on the termination date: its February day number is kept.
      ['2011-08-31', '2012-02-29', 179],
    ],
  },
  {
    termination: '2008-02-29',
    vectors: [
      ['2006-01-31', '2006-02-28', 30],
      ['2006-01-30', '2006-02-28', 30],
      ['2006-02-28', '2006-03-03', 3],
      ['2006-02-14', '2006-02-28', 16],
      ['2006-09-30', '2006-10-31', 30],
      ['2006-10-31', '2006-11-28', 28],
      ['2007-08-31', '2008-02-28', 178],
      ['2008-02-28', '2008-08-28', 180],
      ['2008-02-28', '2008-08-30', 182],
      ['2008-02-28', '2008-08-31', 182],
      ['2007-02-28', '2008-02-28', 358],
      ['2007-02-28', '2008-02-29', 359],
      ['2008-02-29', '2009-02-28', 360],
      ['2008-02-29', '2008-03-30', 30],
      ['2008-02-29', '2008-03-31', 30],
    ],
  },
];

/**
 * OpenGamma Strata, DayCountTest `data_30U360`, the EOM column (THIRTY_U_360_EOM: the SIA rule with the
 * end-of-month convention), as days: calc360(y1, m1, d1', y2, m2, d2') of the adjusted day numbers.
 */
const STRATA_30U_360_EOM: Vector[] = [
  ['2011-12-28', '2012-02-28', 60],
  ['2011-12-28', '2012-02-29', 61],
  ['2011-12-28', '2012-03-01', 63],
  ['2011-12-28', '2016-02-28', 1500],
  ['2011-12-28', '2016-02-29', 1501],
  ['2011-12-28', '2016-03-01', 1503],
  ['2012-02-28', '2012-03-28', 30],
  ['2012-02-29', '2012-03-28', 28], // (2012, 2, 30) -> (2012, 3, 28)
  ['2012-02-29', '2012-03-30', 30], // (2012, 2, 30) -> (2012, 3, 30)
  ['2012-02-29', '2012-03-31', 30], // D1 -> 30 first, so D2 31 -> 30
  ['2012-02-29', '2013-02-28', 360], // both the last of February: D2 -> 30
  ['2011-02-28', '2012-02-28', 358], // 2012-02-28 is not the last of February
  ['2011-02-28', '2012-02-29', 360],
  ['2012-02-29', '2016-02-29', 1440],
  ['2012-03-01', '2012-03-28', 27],
  ['2012-05-30', '2013-08-29', 449],
  ['2012-05-29', '2013-08-30', 451],
  ['2012-05-30', '2013-08-30', 450],
  ['2012-05-29', '2013-08-31', 452], // D1 29 < 30: D2 stays 31
  ['2012-05-30', '2013-08-31', 450],
  ['2012-05-31', '2013-08-30', 450],
  ['2012-05-31', '2013-08-31', 450],
];

/** Strata, DayCountTest `data_yearFraction` for ACT_360: actual days over 360. */
const STRATA_ACT_360: Vector[] = [
  ['2011-12-28', '2012-02-28', 62],
  ['2011-12-28', '2012-02-29', 63],
  ['2011-12-28', '2012-03-01', 64],
  ['2011-12-28', '2016-02-28', 62 + 366 + 365 + 365 + 365],
  ['2011-12-28', '2016-02-29', 63 + 366 + 365 + 365 + 365],
  ['2011-12-28', '2016-03-01', 64 + 366 + 365 + 365 + 365],
  ['2012-02-28', '2012-03-28', 29],
  ['2012-02-29', '2012-03-28', 28],
  ['2012-03-01', '2012-03-28', 27],
];

/** The year fraction days/360 as the module writes it: 12 places, half-even. */
const over360 = (days: number) => {
  const scaled = (BigInt(days) * 10n ** 13n) / 360n; // 13 places, truncated
  const rest = (BigInt(days) * 10n ** 13n) % 360n;
  let q = scaled / 10n;
  const digit = scaled % 10n;
  if (digit > 5n || (digit === 5n && (rest > 0n || q % 2n === 1n))) q += 1n;
  const s = q.toString().padStart(13, '0');
  return `${s.slice(0, -12)}.${s.slice(-12)}`;
};

describe('day counts: published test vectors', () => {
  it.each(BOND_BASIS)('30/360 (Bond Basis, ISDA 4.16(f)) %s -> %s is %i days', (from, to, days) => {
    expect(dayCountDays(from, to, '30/360')).toBe(days);
  });

  it.each(EUROBOND_BASIS)('30E/360 (Eurobond Basis, ISDA 4.16(g)) %s -> %s is %i days', (from, to, days) => {
    expect(dayCountDays(from, to, '30E/360')).toBe(days);
    expect(yearFraction(from, to, '30E/360')).toBe(over360(days));
  });

  for (const { termination, vectors } of ISDA_30E)
    it.each(vectors)(
      `30E/360 ISDA (4.16(h)), termination ${termination}: %s -> %s is %i days`,
      (from, to, days) => {
        expect(dayCountDays(from, to, '30E/360 ISDA', termination)).toBe(days);
        expect(yearFraction(from, to, '30E/360 ISDA', termination)).toBe(over360(days));
      },
    );

  it.each(STRATA_30U_360_EOM)('30/360 US (SIA, end-of-month rule) %s -> %s is %i days', (from, to, days) => {
    expect(dayCountDays(from, to, '30/360 US')).toBe(days);
    expect(yearFraction(from, to, '30/360 US')).toBe(over360(days));
  });

  it.each(STRATA_ACT_360)('ACT/360 (ISDA 4.16(e)) %s -> %s is %i/360', (from, to, days) => {
    expect(dayCountDays(from, to, 'ACT/360')).toBe(days);
    expect(yearFraction(from, to, 'ACT/360')).toBe(over360(days));
  });

  it('the February and 31st rules set the conventions apart (one interval, four 30-day counts)', () => {
    // 2008-02-29 -> 2008-03-31: Bond keeps D1 29 so D2 stays 31 (32); US moves D1 to 30, then D2 to 30
    // (30); Eurobond moves only D2 (31); 30E ISDA moves both (30).
    const counts = (['30/360', '30/360 US', '30E/360', '30E/360 ISDA'] as const).map((dc) =>
      dayCountDays('2008-02-29', '2008-03-31', dc),
    );
    expect(counts).toEqual([32, 30, 31, 30]);
    // Without a termination date, 30E/360 ISDA moves a February end D2 to 30 too.
    expect(dayCountDays('2011-08-31', '2012-02-29', '30E/360 ISDA')).toBe(180);
    // The termination date only keeps D2; D1 on the last of February always becomes 30.
    expect(dayCountDays('2012-02-29', '2012-03-31', '30E/360 ISDA', '2012-02-29')).toBe(30);
  });
});

describe('day counts: the worked examples of loan-math.md, 10,000.00 (1,000,000 minor units) at 8%', () => {
  const at8 = (from: string, to: string, dc: DayCount, termination?: string) =>
    interestBetween(1_000_000, '8', from, to, dc, undefined, termination);

  it('30/360 US: the last of February counts as the 30th', () => {
    // D1 2024-02-29 (last of February) -> 30, then D2 31 -> 30 (D1 >= 30): 30 days; 80,000 * 30/360.
    expect(at8('2024-02-29', '2024-03-31', '30/360 US')).toEqual({
      exact: '6666.666666666667',
      rounded: 6667,
    });
    // Bond Basis on the same interval: D1 = 29, D2 stays 31: 32 days = 64000/9.
    expect(at8('2024-02-29', '2024-03-31', '30/360')).toEqual({ exact: '7111.111111111111', rounded: 7111 });
    // Both dates the last of February: D2 -> 30, D1 -> 30: 360 days, exactly a year.
    expect(at8('2023-02-28', '2024-02-29', '30/360 US')).toEqual({
      exact: '80000.000000000000',
      rounded: 80000,
    });
  });

  it('30E/360: a 31st is the 30th at either end, whatever the other date', () => {
    // 2024-02-28 -> 2024-03-31: D2 31 -> 30: 30 + 2 = 32 days (Bond: 33).
    expect(at8('2024-02-28', '2024-03-31', '30E/360')).toEqual({ exact: '7111.111111111111', rounded: 7111 });
    // 2024-05-29 -> 2024-08-31: D2 -> 30: 90 + 1 = 91 days = 182000/9 (Bond keeps 31: 92 days, 20,444.44).
    expect(at8('2024-05-29', '2024-08-31', '30E/360')).toEqual({
      exact: '20222.222222222222',
      rounded: 20222,
    });
    expect(at8('2024-05-29', '2024-08-31', '30/360').rounded).toBe(20444);
  });

  it('30E/360 ISDA: the last of February is the 30th, except a termination date at the end', () => {
    // D1 31 -> 30, D2 2024-02-29 (last of February) -> 30: 30 days.
    expect(at8('2024-01-31', '2024-02-29', '30E/360 ISDA')).toEqual({
      exact: '6666.666666666667',
      rounded: 6667,
    });
    // The same period ending on the loan's maturity: D2 stays 29: 29 days = 58000/9.
    expect(at8('2024-01-31', '2024-02-29', '30E/360 ISDA', '2024-02-29')).toEqual({
      exact: '6444.444444444444',
      rounded: 6444,
    });
    // D1 2023-02-28 (last of February) -> 30, D2 31 -> 30: 30 days.
    expect(at8('2023-02-28', '2023-03-31', '30E/360 ISDA').rounded).toBe(6667);
  });

  it('ACT/360: actual days over 360', () => {
    // 29 days of February 2024: 80,000 * 29/360 = 58000/9.
    expect(at8('2024-02-01', '2024-03-01', 'ACT/360')).toEqual({ exact: '6444.444444444444', rounded: 6444 });
    // A leap year is 366/360 of the annual rate: 244000/3.
    expect(at8('2024-01-01', '2025-01-01', 'ACT/360')).toEqual({
      exact: '81333.333333333333',
      rounded: 81333,
    });
  });
});

describe('daily accruals under every day count add up to the period', () => {
  const DAY_MS = 86_400_000;
  const iso = (t: number) => new Date(t).toISOString().slice(0, 10);
  const plus = (day: string, n: number) => iso(Date.parse(`${day}T00:00:00Z`) + n * DAY_MS);
  const between = (a: string, b: string) =>
    (Date.parse(`${b}T00:00:00Z`) - Date.parse(`${a}T00:00:00Z`)) / DAY_MS;

  /** Accrues [start, end) day by day from the period start; returns the cumulative exact and the posts. */
  function accrue(dc: DayCount, start: string, end: string, termination?: string) {
    let cumulative = '0';
    let posted = 0;
    for (let k = 0; k < between(start, end); k++) {
      const today = dailyAccrual(1_000_000, '8', plus(start, k), dc, {
        periodStart: start,
        terminationDate: termination,
      });
      const step = accrualToPost(cumulative, today.exact);
      cumulative = step.exactCumulative;
      posted += step.post;
    }
    return { cumulative, posted };
  }

  it.each([
    // February and 31st edges of each convention, as one-month periods of a monthly schedule.
    ['30/360 US', '2024-01-31', '2024-02-29', undefined],
    ['30/360 US', '2024-02-29', '2024-03-31', undefined],
    ['30E/360', '2024-02-28', '2024-03-31', undefined],
    ['30E/360', '2024-03-31', '2024-04-30', undefined],
    ['30E/360 ISDA', '2023-01-31', '2023-02-28', undefined],
    ['30E/360 ISDA', '2023-01-31', '2023-02-28', '2023-02-28'],
    ['30E/360 ISDA', '2024-02-15', '2024-03-15', undefined],
    ['ACT/360', '2024-02-15', '2024-03-15', undefined],
  ] as [DayCount, string, string, string | undefined][])(
    '%s %s -> %s (termination %s): the days add up to the period digit for digit',
    (dc, start, end, termination) => {
      const whole = interestBetween(1_000_000, '8', start, end, dc, undefined, termination);
      expect(accrue(dc, start, end, termination)).toEqual({ cumulative: whole.exact, posted: whole.rounded });
    },
  );

  it('30E/360 ISDA: the termination date changes the last day only, and the period adds up either way', () => {
    // 2023-01-31 -> 2023-02-28: 30 days as a regular period, 28 when it ends at maturity.
    expect(interestBetween(1_000_000, '8', '2023-01-31', '2023-02-28', '30E/360 ISDA').rounded).toBe(6667);
    expect(
      interestBetween(1_000_000, '8', '2023-01-31', '2023-02-28', '30E/360 ISDA', undefined, '2023-02-28')
        .rounded,
    ).toBe(6222);
    const lastDay = (termination?: string) =>
      dailyAccrual(1_000_000, '8', '2023-02-27', '30E/360 ISDA', {
        periodStart: '2023-01-31',
        terminationDate: termination,
      }).exact;
    // The 27th counts 3 days (27 -> 30) in a regular period, 1 day at maturity.
    expect(lastDay()).toBe('666.666666666667');
    expect(lastDay('2023-02-28')).toBe('222.222222222222');
  });

  it('any period, any start, any day count: the posts add up to the rounded period interest', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 20 * 365 }),
        fc.integer({ min: 1, max: 100 }),
        fc.constantFrom(...DAY_COUNTS),
        fc.boolean(),
        (offset, days, dc, atMaturity) => {
          const start = plus('2010-01-01', offset);
          const end = plus(start, days);
          const termination = atMaturity ? end : undefined;
          const whole = interestBetween(1_000_000, '8', start, end, dc, undefined, termination);
          expect(accrue(dc, start, end, termination)).toEqual({
            cumulative: whole.exact,
            posted: whole.rounded,
          });
        },
      ),
      { numRuns: 60 },
    );
  });
});
