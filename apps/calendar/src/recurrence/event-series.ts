import {
  RecurrenceError,
  RecurrenceErrorCode,
  RecurrenceReason,
  compileRecurrence,
  validateRecurrence,
  type CompiledRecurrence,
  type EventTime,
  type RecurrenceOverride,
} from '@platform/recurrence';
import type { DomainError } from '@platform/envelope';
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
