import { civilFromDays, daysFromCivil, daysInMonth, formatDay as civilFormatDay } from '@platform/time';
import { LoanMathErrorCode as C, mathError } from './errors';

/**
 * Calendar days as integers (days since 1970-01-01, proleptic Gregorian, UTC): no Date objects, no
 * time zones, no floats. Inputs and outputs are ISO `YYYY-MM-DD` strings.
 */
export type Day = number;

const ISO_DAY = /^(\d{4})-(\d{2})-(\d{2})$/;

// The civil-date arithmetic is libs/time's (one implementation for the platform); lending names it
// after its own `Day`.
export { isLeapYear, daysInMonth, daysInYear } from '@platform/time';
/** Howard Hinnant's days_from_civil (libs/time). */
export const fromCivil: (y: number, m: number, d: number) => Day = daysFromCivil;
export const toCivil: (day: Day) => { y: number; m: number; d: number } = civilFromDays;

/** Parses a real calendar day between 1900-01-01 and 2999-12-31. */
export function parseDay(value: unknown, field: string): Day {
  const m = typeof value === 'string' ? ISO_DAY.exec(value) : null;
  if (m) {
    const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
    if (y >= 1900 && y <= 2999 && mo >= 1 && mo <= 12 && d >= 1 && d <= daysInMonth(y, mo)) {
      return fromCivil(y, mo, d);
    }
  }
  throw mathError(C.INVALID_DATE, field, 'expected a calendar day YYYY-MM-DD between 1900 and 2999');
}

export const formatDay: (day: Day) => string = civilFormatDay;

/** Adds whole months, clamping the day to the target month's length (Jan 31 + 1 month = Feb 28/29). */
export function addMonths(day: Day, months: number): Day {
  const { y, m, d } = toCivil(day);
  const index = y * 12 + (m - 1) + months;
  const ty = Math.floor(index / 12);
  const tm = index - ty * 12 + 1;
  return fromCivil(ty, tm, Math.min(d, daysInMonth(ty, tm)));
}
