import { LoanMathError, LoanMathErrorCode } from './errors';
import {
  MAX_SCHEDULE_TOTAL,
  type Rounding,
  checkScheduleTotal,
  formatExact,
  minor,
  parseExact,
  parseRate,
  roundDiv,
  toNumber,
} from './money';
import { generateSchedule } from './schedule';

describe('roundDiv (one rounding per amount, Java RoundingMode semantics)', () => {
  // value = n/10: 2.5, 3.5, -2.5, 2.4, 2.6, -2.6, 2.0
  const cases: [bigint, Rounding, bigint][] = [
    [25n, 'half-up', 3n],
    [25n, 'half-even', 2n],
    [35n, 'half-even', 4n],
    [-25n, 'half-up', -3n],
    [-25n, 'half-even', -2n],
    [24n, 'half-up', 2n],
    [26n, 'half-even', 3n],
    [24n, 'up', 3n],
    [26n, 'down', 2n],
    [-26n, 'down', -2n],
    [-24n, 'up', -3n],
    [20n, 'up', 2n],
    [20n, 'down', 2n],
  ];
  it.each(cases)('%d/10 %s -> %d', (n, mode, expected) => {
    expect(roundDiv(n, 10n, mode)).toBe(expected);
  });
});

describe('parseRate', () => {
  it.each([
    ['8', 8n, 100n],
    ['19.99', 1999n, 10000n],
    ['0', 0n, 100n],
    ['0.0000000001', 1n, 1000000000000n],
    ['9999.5', 99995n, 1000n],
  ])('parses %s exactly', (s, n, d) => {
    expect(parseRate(s)).toEqual({ n, d });
  });

  it.each(['', '-1', '08', '1e2', ' 8', '8.', '.5', '10000', '1.12345678901', 8, null, '8,5'])(
    'refuses %p',
    (s) => {
      expect(() => parseRate(s)).toThrow(expect.objectContaining({ code: LoanMathErrorCode.INVALID_RATE }));
    },
  );
});

describe('minor units guard', () => {
  it.each([1.5, NaN, Infinity, 2 ** 53, '100', -1, undefined])('refuses %p with a RangeError', (v) => {
    expect(() => minor(v, 'amount')).toThrow(RangeError);
    expect(() => minor(v, 'amount')).toThrow(LoanMathError);
  });

  it('accepts the largest safe integer and refuses results beyond it', () => {
    expect(minor(Number.MAX_SAFE_INTEGER, 'x')).toBe(9007199254740991n);
    expect(() => toNumber(9007199254740992n, 'x')).toThrow(
      expect.objectContaining({ code: LoanMathErrorCode.OVERFLOW }),
    );
  });
});

describe('exact decimals', () => {
  it('formats with 12 places, half-even at the last one', () => {
    expect(formatExact({ n: 1n, d: 3n })).toBe('0.333333333333');
    expect(formatExact({ n: 2n, d: 3n })).toBe('0.666666666667');
    expect(formatExact({ n: -40000n, d: 3n })).toBe('-13333.333333333333');
    expect(formatExact({ n: 80000n, d: 1n })).toBe('80000.000000000000');
  });

  it('parses what it formats, and refuses junk', () => {
    expect(parseExact('-12.50', 'x')).toEqual({ n: -1250n, d: 100n });
    expect(parseExact('7', 'x')).toEqual({ n: 7n, d: 1n });
    for (const bad of ['', '1e3', '1.', '.1', '--1', ' 1', 1]) {
      expect(() => parseExact(bad, 'x')).toThrow(
        expect.objectContaining({ code: LoanMathErrorCode.INVALID_DECIMAL }),
      );
    }
  });
});

describe('the schedule ceiling (docs/decisions/0030-exact-money-range.md)', () => {
  it('accepts a schedule totalling exactly 10^15 and refuses one minor unit more', () => {
    const half = Number(MAX_SCHEDULE_TOTAL / 2n);
    expect(checkScheduleTotal([{ total: half }, { total: half }])).toHaveLength(2);
    expect(() => checkScheduleTotal([{ total: half }, { total: half + 1 }])).toThrow(
      expect.objectContaining({ code: LoanMathErrorCode.OVERFLOW, field: 'total' }),
    );
  });

  it('refuses the issue-23 loan (2x10^13 at 999.99% over 600 months: about 10^16 of interest)', () => {
    const input = {
      principal: 2e13,
      annualRate: '999.99',
      termCount: 600,
      frequency: 'monthly',
      scheduleType: 'annuity',
      dayCount: '30/360',
      disbursementDate: '2026-01-15',
    } as const;
    expect(() => generateSchedule(input)).toThrow(
      expect.objectContaining({ code: LoanMathErrorCode.OVERFLOW, field: 'total' }),
    );
    // The same loan over 6 months totals below the ceiling and is generated.
    const rows = generateSchedule({ ...input, termCount: 6 });
    expect(rows.reduce((s, r) => s + BigInt(r.total), 0n)).toBeLessThanOrEqual(MAX_SCHEDULE_TOTAL);
  });
});
