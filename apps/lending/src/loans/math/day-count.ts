import { type Day, daysInYear, fromCivil, toCivil } from './dates';
import { LoanMathErrorCode as C, mathError } from './errors';
import type { Ratio } from './money';

/**
 * Day-count conventions: the fraction of a year between two calendar days (from inclusive, to exclusive).
 *
 * - '30/360' ISDA 2006 4.16(f) "30/360" (Bond Basis, the US variant without the February rule):
 *     D1 = 31 -> 30; D2 = 31 and D1 (after the first rule) >= 30 -> 30;
 *     days = 360*(Y2-Y1) + 30*(M2-M1) + (D2-D1); fraction = days / 360.
 *   A whole month between the same day numbers is always 30 days (1/12 year).
 * - 'ACT/365F': actual days / 365, leap years included.
 * - 'ACT/ACT' ISDA 2006 4.16(b): days falling in a leap year / 366 + days falling in other years / 365.
 */
export type DayCount = '30/360' | 'ACT/365F' | 'ACT/ACT';
export const DAY_COUNTS: readonly DayCount[] = ['30/360', 'ACT/365F', 'ACT/ACT'];

export function checkDayCount(value: unknown, field = 'dayCount'): DayCount {
  if (!DAY_COUNTS.includes(value as DayCount)) {
    throw mathError(C.INVALID_OPTION, field, `expected one of ${DAY_COUNTS.join(', ')}`);
  }
  return value as DayCount;
}

/** The 30/360 (Bond Basis) day count between two days; may be 0 (the 30th to the 31st). */
export function days30360(from: Day, to: Day): number {
  const a = toCivil(from);
  const b = toCivil(to);
  const d1 = a.d === 31 ? 30 : a.d;
  const d2 = b.d === 31 && d1 >= 30 ? 30 : b.d;
  return 360 * (b.y - a.y) + 30 * (b.m - a.m) + (d2 - d1);
}

/** The year fraction from `from` to `to` (from <= to) under the convention, as an exact fraction. */
export function yearFractionOf(from: Day, to: Day, dayCount: DayCount): Ratio {
  if (dayCount === '30/360') return { n: BigInt(days30360(from, to)), d: 360n };
  if (dayCount === 'ACT/365F') return { n: BigInt(to - from), d: 365n };
  // ACT/ACT ISDA: split at 1 January of each year the interval crosses.
  let leapDays = 0;
  let otherDays = 0;
  let start = from;
  while (start < to) {
    const { y } = toCivil(start);
    const end = Math.min(to, fromCivil(y + 1, 1, 1));
    if (daysInYear(y) === 366) leapDays += end - start;
    else otherDays += end - start;
    start = end;
  }
  return { n: BigInt(leapDays) * 365n + BigInt(otherDays) * 366n, d: 365n * 366n };
}
