import { AvailabilityError, AvailabilityErrorReason as R } from './availability.errors';
import { assertRange, mergeIntervals, type Interval, type TimeRange } from './intervals';
import {
  canonicalTimeZone,
  DAY_MS,
  isIanaTimeZone,
  MINUTE_MS,
  resolveZone,
  steadyOffsetForLocalDay,
  UTC,
} from '@platform/time';

export const WEEKDAYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const;
export type Weekday = (typeof WEEKDAYS)[number];

/** A span of wall-clock time within one day: `HH:MM` 24-hour, `start < end`; `end` may be `24:00`. */
export interface WallSpan {
  start: string;
  end: string;
}

/**
 * A person's weekly working hours in their IANA zone. A day that is missing (or has an empty list) is a
 * day off. Several spans a day are allowed (a lunch break); they must not overlap, but may touch. A span
 * cannot cross midnight: a night shift is `mon: [{22:00, 24:00}]` plus `tue: [{00:00, 06:00}]`, and
 * the two touching intervals merge into one.
 */
export interface WorkingHours {
  timeZone: string;
  days: Partial<Record<Weekday, readonly WallSpan[]>>;
}

/** Working hours after `parseWorkingHours`: the canonical zone, spans in minutes, Monday first. */
export interface WorkingSchedule {
  readonly timeZone: string;
  /** Seven lists (Monday .. Sunday) of [startMinute, endMinute) pairs, sorted, 0 <= start < end <= 1440. */
  readonly days: readonly (readonly (readonly [number, number])[])[];
}

export const WORKING_HOURS_LIMITS = {
  /** Spans on one weekday. */
  spansPerDay: 24,
  /** The longest range `workingIntervals` expands in one call. */
  maxRangeDays: 366,
} as const;

const WALL_TIME = /^([01]\d|2[0-3]):([0-5]\d)$/;

function parseWallTime(value: unknown, isEnd: boolean, field: string): number {
  if (typeof value === 'string') {
    if (isEnd && value === '24:00') return 1440;
    const m = WALL_TIME.exec(value);
    if (m) return Number(m[1]) * 60 + Number(m[2]);
  }
  throw new AvailabilityError(R.INVALID_WALL_TIME, field, { expected: isEnd ? 'HH:MM or 24:00' : 'HH:MM' });
}

const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Checks working hours from an untrusted source and returns them normalized. Refuses, with a typed
 * error (never a TypeError): a value that is not `{ timeZone, days }`, a zone the runtime does not know,
 * a day key other than mon..sun, a time that is not `HH:MM` (`25:00`, `9:00`, `24:30`; `24:00` only as
 * an end), `end <= start`, overlapping spans of one day, more than 24 spans a day.
 *
 * @throws AvailabilityError INVALID_WORKING_HOURS, INVALID_TIME_ZONE, INVALID_WALL_TIME, EMPTY_SPAN,
 *   OVERLAPPING_SPANS
 */
export function parseWorkingHours(input: unknown, field = 'workingHours'): WorkingSchedule {
  if (!isPlainObject(input)) throw new AvailabilityError(R.INVALID_WORKING_HOURS, field);
  // An IANA name only, as the reference says: Intl also takes a bare offset (`+05:00`), no zone.
  const timeZone = isIanaTimeZone(input.timeZone) ? canonicalTimeZone(input.timeZone) : null;
  if (!timeZone) throw new AvailabilityError(R.INVALID_TIME_ZONE, `${field}.timeZone`);
  const days = input.days;
  if (!isPlainObject(days)) throw new AvailabilityError(R.INVALID_WORKING_HOURS, `${field}.days`);
  for (const key of Object.keys(days)) {
    if (!(WEEKDAYS as readonly string[]).includes(key)) {
      throw new AvailabilityError(R.INVALID_WORKING_HOURS, `${field}.days`, { unknownDay: key });
    }
  }
  const schedule = WEEKDAYS.map((day) => {
    const at = `${field}.days.${day}`;
    const spans = Object.prototype.hasOwnProperty.call(days, day) ? days[day] : undefined;
    if (spans === undefined || spans === null) return [];
    if (!Array.isArray(spans) || spans.length > WORKING_HOURS_LIMITS.spansPerDay) {
      throw new AvailabilityError(R.INVALID_WORKING_HOURS, at, {
        maxSpans: WORKING_HOURS_LIMITS.spansPerDay,
      });
    }
    const parsed = spans.map((span: unknown, i): [number, number] => {
      if (!isPlainObject(span)) throw new AvailabilityError(R.INVALID_WORKING_HOURS, `${at}[${i}]`);
      const start = parseWallTime(span.start, false, `${at}[${i}].start`);
      const end = parseWallTime(span.end, true, `${at}[${i}].end`);
      if (end <= start) throw new AvailabilityError(R.EMPTY_SPAN, `${at}[${i}]`);
      return [start, end];
    });
    parsed.sort((a, b) => a[0] - b[0]);
    for (let i = 1; i < parsed.length; i++) {
      if (parsed[i][0] < parsed[i - 1][1]) throw new AvailabilityError(R.OVERLAPPING_SPANS, at);
    }
    return parsed;
  });
  const result: WorkingSchedule = Object.freeze({ timeZone, days: schedule });
  parsedSchedules.add(result);
  return result;
}

/** Monday = 0. Day 0 (1970-01-01) was a Thursday. */
const weekdayIndex = (day: number) => (((day + 3) % 7) + 7) % 7;

/**
 * The instants at which a person works within [range.from, range.to): sorted, merged (touching spans,
 * also across midnight, become one interval), cut to the range.
 *
 * Each span is placed on each local date by converting its wall-clock start and end to instants with
 * the zone's `toInstant` (libs/time), so DST is followed day by day:
 *
 * - on a day clocks spring forward, a wall time inside the gap moves forward by the gap (RFC 5545): in
 *   Berlin on 2025-03-30 a span 02:30-04:00 becomes 03:30-04:00 CEST; 09:00-17:00 is still 8 hours;
 *   a span that lies wholly inside the gap (02:00-03:00) is empty that day; a span whose start moves
 *   past its end (02:30-03:15 becomes 03:30-03:15) is empty too;
 * - on a day clocks fall back, a repeated wall time means its first occurrence: 00:00-24:00 lasts 25
 *   hours, and 01:00-02:30 in Berlin (2025-10-26) ends at the first 02:30 (CEST).
 *
 * Accepts raw `WorkingHours` (checked here) or an already parsed `WorkingSchedule`.
 *
 * @throws AvailabilityError the codes of `parseWorkingHours`, INVALID_RANGE, RANGE_TOO_LONG
 */
export function workingIntervals(hours: WorkingHours | WorkingSchedule, range: TimeRange): Interval[] {
  assertRange(range);
  if (range.to - range.from > WORKING_HOURS_LIMITS.maxRangeDays * DAY_MS) {
    throw new AvailabilityError(R.RANGE_TOO_LONG, 'range', { maxDays: WORKING_HOURS_LIMITS.maxRangeDays });
  }
  return scheduleIntervals(isSchedule(hours) ? hours : parseWorkingHours(hours), range);
}

/** Schedules made by `parseWorkingHours`; anything else (however it looks) is checked again. */
const parsedSchedules = new WeakSet<object>();

function isSchedule(hours: WorkingHours | WorkingSchedule): hours is WorkingSchedule {
  return typeof hours === 'object' && hours !== null && parsedSchedules.has(hours);
}

/** `workingIntervals` for a parsed schedule and a checked range. */
export function scheduleIntervals(schedule: WorkingSchedule, range: TimeRange): Interval[] {
  // The zone is canonical (parseWorkingHours), so it resolves.
  const zone = resolveZone(schedule.timeZone) ?? UTC;
  const wallDay = (instant: number) => Math.floor((instant + zone.offsetAt(instant)) / DAY_MS);
  // One local day of margin each side: a span of the day before `from` may reach into the range.
  const firstDay = wallDay(range.from) - 1;
  const lastDay = wallDay(range.to) + 1;
  const out: Interval[] = [];
  for (let day = firstDay; day <= lastDay; day++) {
    const spans = schedule.days[weekdayIndex(day)];
    if (spans.length === 0) continue;
    const midnight = day * DAY_MS;
    const steady = steadyOffsetForLocalDay(zone, day);
    const toInstant = (minute: number) => {
      const local = midnight + minute * MINUTE_MS;
      return steady === null ? zone.toInstant(local) : local - steady;
    };
    for (const [startMinute, endMinute] of spans) {
      const start = Math.max(toInstant(startMinute), range.from);
      const end = Math.min(toInstant(endMinute), range.to);
      if (start < end) out.push({ start, end });
    }
  }
  return mergeIntervals(out);
}
