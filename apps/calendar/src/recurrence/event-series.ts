import {
  RecurrenceError,
  RecurrenceErrorCode,
  RecurrenceReason,
  compileRecurrence,
  occurrenceIntervals,
  validateRecurrence,
  type CompiledRecurrence,
  type EventTime,
  type RecurrenceOverride,
} from '@platform/recurrence';
import type { DomainError } from '@platform/envelope';
import { DAY_MS, MAX_MS, MIN_MS } from '@platform/time';
import type { StoredOverride, StoredTime } from '../events/calendar-event.entity';
import { CalendarError, calendarError } from '../events/event.errors';

/**
 * The bridge between the calendar's event columns and libs/recurrence: a stored event (or the columns
 * an upsert is about to write) as the engine's series, and the engine's refusals as the calendar's
 * coded errors.
 */

/** The columns a series is built from: the master's own first occurrence, its lines and overrides. */
export interface SeriesColumns {
  allDay: boolean;
  startsAt: Date | null;
  endsAt: Date | null;
  startDate: string | null;
  endDate: string | null;
  timeZone: string | null;
  recurrence: string[];
  recurrenceOverrides?: StoredOverride[] | null;
}

/** Whether the event repeats: any recurrence line, or an override of its (single) occurrence. */
export const isRecurring = (e: Pick<SeriesColumns, 'recurrence'>) => e.recurrence.length > 0;

/**
 * DTSTART as the engine takes it: the date of an all-day event (its zone only places it in ranges),
 * else the instant with the event's zone (UTC when it has none), in which the rule is computed.
 */
export function startOf(e: SeriesColumns): EventTime | null {
  if (e.allDay) return e.startDate ? { date: e.startDate } : null;
  if (!e.startsAt) return null;
  return { dateTime: e.startsAt.toISOString(), ...(e.timeZone ? { timeZone: e.timeZone } : {}) };
}

function endOf(e: SeriesColumns): EventTime | undefined {
  if (e.allDay) return e.endDate ? { date: e.endDate } : undefined;
  if (!e.endsAt) return undefined;
  return { dateTime: e.endsAt.toISOString(), ...(e.timeZone ? { timeZone: e.timeZone } : {}) };
}

function engineTime(t: StoredTime): EventTime {
  if (t.date !== undefined) return { date: t.date };
  return { dateTime: t.date_time ?? '', ...(t.time_zone ? { timeZone: t.time_zone } : {}) };
}

/** Overrides as the API stores them (snake case) in the engine's shape. */
export function engineOverrides(list: readonly StoredOverride[] | null | undefined): RecurrenceOverride[] {
  return (list ?? []).map((o) =>
    o.cancelled
      ? { recurrenceId: o.recurrence_id, cancelled: true }
      : {
          recurrenceId: o.recurrence_id,
          start: o.start ? engineTime(o.start) : (undefined as unknown as EventTime),
          ...(o.end ? { end: engineTime(o.end) } : {}),
        },
  );
}

/** The zone all-day dates of the event are placed in when compared with a range (UTC without one). */
export const floatingZoneOf = (e: SeriesColumns) => (e.allDay && e.timeZone ? e.timeZone : undefined);

/** Compiles a stored event; throws RecurrenceError for a series the engine refuses. */
export function compileStored(e: SeriesColumns): CompiledRecurrence {
  const start = startOf(e);
  if (!start) throw new RecurrenceError(RecurrenceErrorCode.INVALID_START, RecurrenceReason.BAD_VALUE, {});
  return compileRecurrence({
    start,
    end: endOf(e),
    lines: e.recurrence,
    overrides: engineOverrides(e.recurrenceOverrides),
  });
}

function refusal(code: CalendarError, e: { reason: string; line?: number; part?: string }): DomainError {
  // Nested: the envelope's own `value.reason` is the error code.
  const recurrence = {
    reason: e.reason,
    ...(e.line !== undefined ? { line: e.line } : {}),
    ...(e.part !== undefined ? { part: e.part } : {}),
  };
  return calendarError(code, { reason: e.reason, line: e.line ?? '-', part: e.part ?? '-' }, { recurrence });
}

/**
 * The write-time check of an upsert: the lines alone when the event has no start, else the whole
 * series (lines against DTSTART, e.g. no BYHOUR on an all-day event, and every override against the
 * series). 400 CALENDAR_RECURRENCE_INVALID or CALENDAR_RECURRENCE_OVERRIDE_INVALID with
 * `{ reason, line, part }`.
 */
export function assertValidSeries(e: SeriesColumns): void {
  const start = startOf(e);
  const overrides = e.recurrenceOverrides ?? [];
  if (!start) {
    const checked = validateRecurrence(e.recurrence);
    if (!checked.valid) throw refusal(CalendarError.RECURRENCE_INVALID, checked.error);
    if (overrides.length) {
      throw refusal(CalendarError.RECURRENCE_OVERRIDE_INVALID, {
        reason: RecurrenceReason.BAD_VALUE,
        part: 'overrides need an event with a start',
      });
    }
    return;
  }
  // The lines first, on their own, so a bad line is reported as such even when overrides are sent.
  const lines = validateRecurrence(e.recurrence, start);
  if (!lines.valid) throw refusal(CalendarError.RECURRENCE_INVALID, lines.error);
  try {
    compileStored(e);
  } catch (err) {
    if (!(err instanceof RecurrenceError)) throw err;
    throw refusal(
      err.code === RecurrenceErrorCode.INVALID_OVERRIDE
        ? CalendarError.RECURRENCE_OVERRIDE_INVALID
        : CalendarError.RECURRENCE_INVALID,
      err,
    );
  }
}

/** 422: a series saved before write-time validation that the engine refuses now. */
export const storedInvalid = (e: RecurrenceError) => refusal(CalendarError.RECURRENCE_STORED_INVALID, e);

/** Occurrences walked to find where a bounded series ends; past it the series counts as unbounded. */
const SERIES_END_WALK = 5_000;

/**
 * The end of the last occurrence of a recurring event (RDATEs and moved overrides included), or null
 * when it has none to find: not recurring, a rule without COUNT or UNTIL, more than SERIES_END_WALK
 * occurrences, or a series the engine refuses. Stored as `series_ends_at`, so a time range skips
 * series that ended before it without expanding them (null: always expanded).
 */
export function seriesEndOf(e: SeriesColumns): Date | null {
  if (!isRecurring(e) && !(e.recurrenceOverrides ?? []).length) return null;
  if (e.recurrence.some((l) => /^RRULE[;:]/i.test(l) && !/[;:]\s*(COUNT|UNTIL)=/i.test(l))) return null;
  let c: CompiledRecurrence;
  try {
    c = compileStored(e);
  } catch (err) {
    if (err instanceof RecurrenceError) return null;
    throw err;
  }
  const walk = occurrenceIntervals(c, {
    from: MIN_MS + DAY_MS,
    to: MAX_MS,
    floatingTimeZone: floatingZoneOf(e),
    maxIterations: 50 * SERIES_END_WALK,
  });
  let last = -Infinity;
  let n = 0;
  for (let r = walk.next(); ; r = walk.next()) {
    if (r.done) {
      if (r.value !== null) return null;
      break;
    }
    last = Math.max(last, r.value.end);
    if (++n > SERIES_END_WALK) return null;
  }
  return Number.isFinite(last) ? new Date(last) : null;
}
