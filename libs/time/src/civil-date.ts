/**
 * Proleptic Gregorian calendar arithmetic on plain numbers. A day is counted from 1970-01-01 (day 0);
 * a wall time is "milliseconds as if the wall clock were UTC", so wall arithmetic never meets a time
 * zone. `Date.UTC` is not used: it maps years 0-99 to 1900-1999.
 */
export const DAY_MS = 86_400_000;
export const HOUR_MS = 3_600_000;
export const MINUTE_MS = 60_000;
export const MIN_YEAR = 1;
export const MAX_YEAR = 9999;

/** Weekdays counted from Monday, as RFC 5545's ISO 8601 weeks do: MO=0 ... SU=6. */
export const WEEKDAYS = ['MO', 'TU', 'WE', 'TH', 'FR', 'SA', 'SU'] as const;

export function isLeapYear(y: number): boolean {
  return (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;
}

const MONTH_DAYS = [0, 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

export function daysInMonth(y: number, m: number): number {
  return m === 2 && isLeapYear(y) ? 29 : MONTH_DAYS[m];
}

export function daysInYear(y: number): number {
  return isLeapYear(y) ? 366 : 365;
}

/** Day number of a civil date (Howard Hinnant's days_from_civil). */
export function daysFromCivil(y: number, m: number, d: number): number {
  const yy = m <= 2 ? y - 1 : y;
  const era = Math.floor(yy / 400);
  const yoe = yy - era * 400;
  const doy = Math.floor((153 * (m + (m > 2 ? -3 : 9)) + 2) / 5) + d - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146097 + doe - 719468;
}

export interface CivilDate {
  y: number;
  m: number;
  d: number;
}

/** Civil date of a day number (Howard Hinnant's civil_from_days). */
export function civilFromDays(days: number): CivilDate {
  const z = days + 719468;
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

/** MO=0 ... SU=6; day 0 (1970-01-01) was a Thursday. */
export function weekdayOf(days: number): number {
  return (((days + 3) % 7) + 7) % 7;
}

export function isValidDate(y: number, m: number, d: number): boolean {
  return y >= MIN_YEAR && y <= MAX_YEAR && m >= 1 && m <= 12 && d >= 1 && d <= daysInMonth(y, m);
}

export function wallMsOf(y: number, m: number, d: number, h = 0, mi = 0, s = 0): number {
  return daysFromCivil(y, m, d) * DAY_MS + h * HOUR_MS + mi * 60_000 + s * 1000;
}

/** Earliest and latest wall times (and instants) the engine handles: years 0001-9999. */
export const MIN_MS = daysFromCivil(MIN_YEAR, 1, 1) * DAY_MS;
export const MAX_MS = daysFromCivil(MAX_YEAR + 1, 1, 1) * DAY_MS - 1000;

const pad2 = (n: number) => (n < 10 ? `0${n}` : `${n}`);
const pad4 = (n: number) => `${n}`.padStart(4, '0');

export function formatDay(days: number): string {
  const { y, m, d } = civilFromDays(days);
  return `${pad4(y)}-${pad2(m)}-${pad2(d)}`;
}

/** 'YYYY-MM-DDTHH:mm:ss' of a wall time (or of an instant read as UTC). */
export function formatWall(ms: number): string {
  const days = Math.floor(ms / DAY_MS);
  const secs = Math.floor((ms - days * DAY_MS) / 1000);
  const h = Math.floor(secs / 3600);
  const mi = Math.floor((secs % 3600) / 60);
  return `${formatDay(days)}T${pad2(h)}:${pad2(mi)}:${pad2(secs % 60)}`;
}

export function formatInstant(ms: number): string {
  return `${formatWall(ms)}Z`;
}

/** '+01:00', '-04:00', or '+00:53:28' for the odd local-mean-time offset of old dates. */
export function formatOffset(offsetMs: number): string {
  const sign = offsetMs < 0 ? '-' : '+';
  const total = Math.abs(Math.round(offsetMs / 1000));
  const h = Math.floor(total / 3600);
  const mi = Math.floor((total % 3600) / 60);
  const s = total % 60;
  return `${sign}${pad2(h)}:${pad2(mi)}${s ? `:${pad2(s)}` : ''}`;
}
