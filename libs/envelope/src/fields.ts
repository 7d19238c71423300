import { isIanaTimeZone } from '@platform/time';
import { applyDecorators } from '@nestjs/common';
import { Transform } from 'class-transformer';
import { IsInt, Max, Min, ValidateBy, type ValidationOptions } from 'class-validator';

/**
 * The DTO helpers every service uses for the inputs that used to reach storage unchecked. One
 * definition of each thing, the same in the DTO, the column and the event contract:
 * - length is counted in Unicode code points, as PostgreSQL's char_length counts a text column
 *   (class-validator's MaxLength counts neither UTF-16 units nor code points: it skips variation
 *   selectors, so the lint forbids it);
 * - an integer fits PostgreSQL's `integer` unless a wider range is asked for;
 * - a date is a real calendar date of years 0001-9999, an instant also carries its offset.
 */

export const INT32_MAX = 2_147_483_647;

/** Length in Unicode code points (a surrogate pair is one). */
export function charLength(s: string): number {
  let n = s.length;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        n--;
        i++;
      }
    }
  }
  return n;
}

/** At most `max` code points. */
export function MaxChars(max: number, options?: ValidationOptions): PropertyDecorator {
  return ValidateBy(
    {
      name: 'maxChars',
      constraints: [max],
      validator: { validate: (v: unknown) => typeof v === 'string' && charLength(v) <= max },
    },
    options,
  );
}

/** At least `min` code points. */
export function MinChars(min: number, options?: ValidationOptions): PropertyDecorator {
  return ValidateBy(
    {
      name: 'minChars',
      constraints: [min],
      validator: { validate: (v: unknown) => typeof v === 'string' && charLength(v) >= min },
    },
    options,
  );
}

/** An integer in [min, max]; by default a non-negative PostgreSQL `integer`. */
export function IntField(opts: { min?: number; max?: number } = {}): PropertyDecorator {
  return applyDecorators(IsInt(), Min(opts.min ?? 0), Max(opts.max ?? INT32_MAX));
}

const DECIMAL_INT = /^-?\d{1,30}$/;

/**
 * A query-string integer: only plain decimal digits are converted (`1e3`, `0x10`, ` 7`, `` stay
 * strings and fail `isInt`, where `Number()` would have accepted them), then bounded like IntField.
 */
export function QueryInt(opts: { min?: number; max?: number } = {}): PropertyDecorator {
  return applyDecorators(
    Transform(({ value }: { value: unknown }) =>
      typeof value === 'string' && DECIMAL_INT.test(value) ? Number(value) : value,
    ),
    IntField(opts),
  );
}

// Date.parse, not Date.UTC: Date.UTC reads years 0-99 as 1900-1999.
const MIN_INSTANT = Date.parse('0001-01-01T00:00:00Z');
const MAX_INSTANT = Date.parse('9999-12-31T23:59:59.999Z');
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATE_TIME =
  /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(Z|[+-](\d{2}):(\d{2}))$/;

const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

function daysIn(year: number, month: number): number {
  return month === 2 && isLeap(year) ? 29 : DAYS_IN_MONTH[month - 1];
}

function isLeap(y: number): boolean {
  return (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;
}

function realDate(y: string, m: string, d: string): boolean {
  const year = Number(y);
  const month = Number(m);
  const day = Number(d);
  return year >= 1 && month >= 1 && month <= 12 && day >= 1 && day <= daysIn(year, month);
}

/** `YYYY-MM-DD` naming a day that exists (no 2026-02-29, no month 13), years 0001-9999. */
export function isCalendarDate(v: unknown): v is string {
  if (typeof v !== 'string') return false;
  const m = DATE.exec(v);
  return !!m && realDate(m[1], m[2], m[3]);
}

/**
 * An RFC 3339 date-time with its offset (`Z` or ±hh:mm up to 18:00) naming a real wall-clock time,
 * whose instant lies in years 0001-9999 UTC (what PostgreSQL's timestamptz and ISO strings share).
 */
export function isInstant(v: unknown, opts: { allowDate?: boolean } = {}): v is string {
  if (typeof v !== 'string') return false;
  if (opts.allowDate && isCalendarDate(v)) return true;
  const m = DATE_TIME.exec(v);
  if (!m || !realDate(m[1], m[2], m[3])) return false;
  const [hh, mm, ss] = [Number(m[4]), Number(m[5]), Number(m[6] ?? 0)];
  if (hh > 23 || mm > 59 || ss > 59) return false;
  if (m[7] !== 'Z' && (Number(m[8]) > 18 || Number(m[9]) > 59)) return false;
  const t = Date.parse(v);
  return !Number.isNaN(t) && t >= MIN_INSTANT && t <= MAX_INSTANT;
}

export function IsCalendarDate(options?: ValidationOptions): PropertyDecorator {
  return ValidateBy({ name: 'isCalendarDate', validator: { validate: isCalendarDate } }, options);
}

/** With `allowDate`, a bare date means its midnight UTC (range filters). */
export function IsInstant(
  opts: { allowDate?: boolean } = {},
  options?: ValidationOptions,
): PropertyDecorator {
  return ValidateBy(
    { name: 'isInstant', validator: { validate: (v: unknown) => isInstant(v, opts) } },
    options,
  );
}

/** `isIanaTimeZone`, under class-validator's rule name `isTimeZone` (its localised message). */
export function IsIanaTimeZone(options?: ValidationOptions): PropertyDecorator {
  return ValidateBy({ name: 'isTimeZone', validator: { validate: isIanaTimeZone } }, options);
}

export interface FreeFormMapLimits {
  maxEntries: number;
  maxKeyChars: number;
  maxValueChars: number;
}

/**
 * A caller's own string-to-string map (metadata, labels), stored exactly as sent. class-transformer
 * would drop keys named like Object.prototype methods and turn `__proto__` into a prototype change,
 * so the raw map is copied into a prototype-less object instead; every key is then plain data.
 */
export function FreeFormMap(limits: FreeFormMapLimits): PropertyDecorator {
  return applyDecorators(
    Transform(({ obj, key }: { obj: Record<string, unknown>; key: string }) => {
      const raw = Object.prototype.hasOwnProperty.call(obj, key) ? obj[key] : undefined;
      if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) return raw;
      const copy = Object.create(null) as Record<string, unknown>;
      for (const k of Object.keys(raw)) copy[k] = (raw as Record<string, unknown>)[k];
      return copy;
    }),
    ValidateBy({
      name: 'freeFormMap',
      constraints: [limits.maxEntries, limits.maxKeyChars, limits.maxValueChars],
      validator: {
        validate: (v: unknown) => {
          if (v === null || typeof v !== 'object' || Array.isArray(v)) return false;
          const entries = Object.entries(v);
          return (
            entries.length <= limits.maxEntries &&
            entries.every(
              ([k, val]) =>
                charLength(k) >= 1 &&
                charLength(k) <= limits.maxKeyChars &&
                typeof val === 'string' &&
                charLength(val) <= limits.maxValueChars,
            )
          );
        },
      },
    }),
  );
}
