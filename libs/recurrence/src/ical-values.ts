import { DAY_MS, HOUR_MS, daysFromCivil, isValidDate } from '@platform/time';

/** An RFC 5545 DATE (a day number) or DATE-TIME (a wall time, UTC when `utc`). */
export type IcalDateValue =
  { kind: 'date'; days: number } | { kind: 'date-time'; wallMs: number; utc: boolean };

const BASIC_DATE = /^(\d{4})(\d{2})(\d{2})$/;
const BASIC_DATE_TIME = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})(Z?)$/;

function wallOf(y: number, mo: number, d: number, h: number, mi: number, s: number): number | null {
  // Second 60 (a positive leap second, RFC 5545 3.3.12) carries into the next minute: the engine's
  // time scale has no leap seconds.
  if (!isValidDate(y, mo, d) || h > 23 || mi > 59 || s > 60) return null;
  return daysFromCivil(y, mo, d) * DAY_MS + h * HOUR_MS + mi * 60_000 + s * 1000;
}

/** 'YYYYMMDD' -> day number, or null. */
export function parseIcalDate(s: string): number | null {
  const m = BASIC_DATE.exec(s);
  if (!m || !isValidDate(+m[1], +m[2], +m[3])) return null;
  return daysFromCivil(+m[1], +m[2], +m[3]);
}

/** 'YYYYMMDDTHHMMSS[Z]' -> wall time, or null. */
export function parseIcalDateTime(s: string): { wallMs: number; utc: boolean } | null {
  const m = BASIC_DATE_TIME.exec(s);
  if (!m) return null;
  const wallMs = wallOf(+m[1], +m[2], +m[3], +m[4], +m[5], +m[6]);
  return wallMs === null ? null : { wallMs, utc: m[7] === 'Z' };
}

export function parseIcalDateOrDateTime(s: string): IcalDateValue | null {
  if (s.length === 8) {
    const days = parseIcalDate(s);
    return days === null ? null : { kind: 'date', days };
  }
  const dt = parseIcalDateTime(s);
  return dt === null ? null : { kind: 'date-time', ...dt };
}

/** An RFC 5545 DURATION: nominal days (weeks count 7) and exact milliseconds, never negative here. */
export interface Duration {
  days: number;
  ms: number;
}

const DURATION = /^\+?P(?:(\d{1,6})W|(?:(\d{1,7})D)?(?:T(?:(\d{1,8})H)?(?:(\d{1,9})M)?(?:(\d{1,10})S)?)?)$/;

/**
 * 'P1D', 'PT1H30M', 'P2W', 'P1DT12H' (RFC 5545 3.3.6; hours, minutes, seconds in any subset). Negative
 * durations are refused: an occurrence cannot end before it starts.
 */
export function parseDuration(s: string): Duration | null {
  const m = DURATION.exec(s);
  if (!m || s.endsWith('T') || s === 'P' || s === '+P') return null;
  if (m[1] !== undefined) return { days: +m[1] * 7, ms: 0 };
  const days = m[2] === undefined ? 0 : +m[2];
  const ms = (+(m[3] ?? 0) * 3600 + +(m[4] ?? 0) * 60 + +(m[5] ?? 0)) * 1000;
  if (days > 3_660_000 || ms > 3_660_000 * DAY_MS) return null;
  return { days, ms };
}

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const ISO_DATE_TIME =
  /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(Z|[+-]\d{2}:?\d{2})?$/i;

/** 'YYYY-MM-DD' (or iCalendar's 'YYYYMMDD') -> day number, or null. */
export function parseIsoDate(s: string): number | null {
  const m = ISO_DATE.exec(s);
  if (m) return isValidDate(+m[1], +m[2], +m[3]) ? daysFromCivil(+m[1], +m[2], +m[3]) : null;
  return parseIcalDate(s);
}

/**
 * 'YYYY-MM-DDTHH:mm[:ss]' with an optional 'Z' or '+hh:mm' (fractions must be zero: the engine counts
 * whole seconds), or iCalendar's basic form. `offsetMs` is null for a wall time without offset.
 */
export function parseIsoDateTime(s: string): { wallMs: number; offsetMs: number | null } | null {
  const m = ISO_DATE_TIME.exec(s);
  if (!m) {
    const basic = parseIcalDateTime(s);
    return basic === null ? null : { wallMs: basic.wallMs, offsetMs: basic.utc ? 0 : null };
  }
  if (m[7] !== undefined && !/^0+$/.test(m[7])) return null;
  const wallMs = wallOf(+m[1], +m[2], +m[3], +m[4], +m[5], m[6] === undefined ? 0 : +m[6]);
  if (wallMs === null) return null;
  const zone = m[8];
  if (zone === undefined) return { wallMs, offsetMs: null };
  if (zone.toUpperCase() === 'Z') return { wallMs, offsetMs: 0 };
  const digits = zone.replace(':', '');
  const h = +digits.slice(1, 3);
  const mi = +digits.slice(3, 5);
  if (h > 18 || mi > 59) return null;
  return { wallMs, offsetMs: (zone[0] === '-' ? -1 : 1) * (h * HOUR_MS + mi * 60_000) };
}
