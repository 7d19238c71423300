import { LoanMathErrorCode as C, mathError } from './errors';

/**
 * Calendar days as integers (days since 1970-01-01, proleptic Gregorian, UTC): no Date objects, no
 * time zones, no floats. Inputs and outputs are ISO `YYYY-MM-DD` strings.
 */
export type Day = number;

const ISO_DAY = /^(\d{4})-(\d{2})-(\d{2})$/;

export const isLeapYear = (y: number) => (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;
export const daysInMonth = (y: number, m: number) =>
  m === 2 ? (isLeapYear(y) ? 29 : 28) : [4, 6, 9, 11].includes(m) ? 30 : 31;
export const daysInYear = (y: number) => (isLeapYear(y) ? 366 : 365);

/** Howard Hinnant's days_from_civil. */
export function fromCivil(y: number, m: number, d: number): Day {
  const yy = m <= 2 ? y - 1 : y;
  const era = Math.floor(yy / 400);
  const yoe = yy - era * 400;
  const doy = Math.floor((153 * (m + (m > 2 ? -3 : 9)) + 2) / 5) + d - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146097 + doe - 719468;
}

export function toCivil(day: Day): { y: number; m: number; d: number } {
  const z = day + 719468;
  const era = Math.floor(z / 146097);
  const doe = z - era * 146097;
  const yoe = Math.floor(
    (doe - Math.floor(doe / 1460) + Math.floor(doe / 36524) - Math.floor(doe / 146096)) / 365,
  );
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const d = doy - Math.floor((153 * mp + 2) / 5) + 1;
  const m = mp < 10 ? mp + 3 : mp - 9;
  return { y: era * 400 + yoe + (m <= 2 ? 1 : 0), m, d };
}

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

export function formatDay(day: Day): string {
  const { y, m, d } = toCivil(day);
  return `${String(y).padStart(4, '0')}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`;
}

/** Adds whole months, clamping the day to the target month's length (Jan 31 + 1 month = Feb 28/29). */
export function addMonths(day: Day, months: number): Day {
  const { y, m, d } = toCivil(day);
  const index = y * 12 + (m - 1) + months;
  const ty = Math.floor(index / 12);
  const tm = index - ty * 12 + 1;
  return fromCivil(ty, tm, Math.min(d, daysInMonth(ty, tm)));
}
