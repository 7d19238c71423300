import { type Day, daysInMonth, daysInYear, fromCivil, toCivil } from './dates';
import { LoanMathErrorCode as C, mathError } from './errors';
import type { Ratio } from './money';

/**
 * Day-count conventions: the fraction of a year between two calendar days (from inclusive, to exclusive).
 * The 30-day conventions count days = 360*(Y2-Y1) + 30*(M2-M1) + (D2-D1) after adjusting D1 and D2, in
 * this order (docs/lending/loan-math.md, "Day counts", with the sources):
 *
 * - '30/360' ISDA 2006 4.16(f) "30/360" (Bond Basis): D1 = 31 -> 30; then D2 = 31 and D1 >= 30 -> 30.
 * - '30/360 US' SIA "30/360" with the end-of-month rule (QuantLib Thirty360::USA, Strata 30U/360 EOM,
 *   Bloomberg BDE SIA-30360-eom): D1 and D2 both the last day of February -> D2 = 30; D1 the last day of
 *   February -> D1 = 30; D2 = 31 and D1 >= 30 -> D2 = 30; D1 = 31 -> D1 = 30.
 * - '30E/360' ISDA 2006 4.16(g) (Eurobond Basis): D1 = 31 -> 30; D2 = 31 -> 30.
 * - '30E/360 ISDA' ISDA 2006 4.16(h): D1 the last day of February or 31 -> 30; D2 the last day of February
 *   (unless it is the termination date, the loan's maturity) or 31 -> 30.
 * - 'ACT/360' ISDA 2006 4.16(e): actual days / 360.
 * - 'ACT/365F' ISDA 2006 4.16(d): actual days / 365, leap years included.
 * - 'ACT/ACT' ISDA 2006 4.16(b): days falling in a leap year / 366 + days falling in other years / 365.
 */
export type DayCount =
  '30/360' | 'ACT/365F' | 'ACT/ACT' | '30/360 US' | '30E/360' | '30E/360 ISDA' | 'ACT/360';
/** The first three in the order they were introduced, then the ones of issue 23 (the CHECK lists them so). */
export const DAY_COUNTS: readonly DayCount[] = [
  '30/360',
  'ACT/365F',
  'ACT/ACT',
  '30/360 US',
  '30E/360',
  '30E/360 ISDA',
  'ACT/360',
];

/** The conventions that count 30-day months. */
export type Thirty360 = Extract<DayCount, '30/360' | '30/360 US' | '30E/360' | '30E/360 ISDA'>;
export const isThirty360 = (dc: DayCount): dc is Thirty360 => dc.startsWith('30');

export function checkDayCount(value: unknown, field = 'dayCount'): DayCount {
  if (!DAY_COUNTS.includes(value as DayCount)) {
    throw mathError(C.INVALID_OPTION, field, `expected one of ${DAY_COUNTS.join(', ')}`);
  }
  return value as DayCount;
}

const lastOfFebruary = (c: { y: number; m: number; d: number }) => c.m === 2 && c.d === daysInMonth(c.y, 2);

/**
 * The day count between two days under a 30-day convention; may be 0 (the 30th to the 31st).
 * `termination` matters to '30E/360 ISDA' only: a `to` on that day keeps its February day number.
 */
export function days360(from: Day, to: Day, dc: Thirty360, termination?: Day): number {
  const a = toCivil(from);
  const b = toCivil(to);
  let d1 = a.d;
  let d2 = b.d;
  switch (dc) {
    case '30/360':
      if (d1 === 31) d1 = 30;
      if (d2 === 31 && d1 >= 30) d2 = 30;
      break;
    case '30/360 US':
      // The order matters: the February rules first, so a D1 moved to 30 pulls a D2 of 31 back to 30.
      if (lastOfFebruary(a)) {
        if (lastOfFebruary(b)) d2 = 30;
        d1 = 30;
      }
      if (d2 === 31 && d1 >= 30) d2 = 30;
      if (d1 === 31) d1 = 30;
      break;
    case '30E/360':
      if (d1 === 31) d1 = 30;
      if (d2 === 31) d2 = 30;
      break;
    case '30E/360 ISDA':
      if (d1 === 31 || lastOfFebruary(a)) d1 = 30;
      if (d2 === 31 || (lastOfFebruary(b) && to !== termination)) d2 = 30;
      break;
  }
  return 360 * (b.y - a.y) + 30 * (b.m - a.m) + (d2 - d1);
}

/** The 30/360 (Bond Basis) day count between two days; may be 0 (the 30th to the 31st). */
export const days30360 = (from: Day, to: Day): number => days360(from, to, '30/360');

/**
 * The year fraction from `from` to `to` (from <= to) under the convention, as an exact fraction.
 * `termination` is the termination date of '30E/360 ISDA' (ignored by the others).
 */
export function yearFractionOf(from: Day, to: Day, dayCount: DayCount, termination?: Day): Ratio {
  if (isThirty360(dayCount)) return { n: BigInt(days360(from, to, dayCount, termination)), d: 360n };
  if (dayCount === 'ACT/365F') return { n: BigInt(to - from), d: 365n };
  if (dayCount === 'ACT/360') return { n: BigInt(to - from), d: 360n };
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
