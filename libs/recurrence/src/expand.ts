import { DAY_MS, formatDay, formatInstant, formatOffset, formatWall } from '@platform/time';
import { RecurrenceError, RecurrenceErrorCode as C, RecurrenceReason as R } from './recurrence.errors';
import type {
  DateOnly,
  ExpandOptions,
  ExpandResult,
  Occurrence,
  RecurrenceSeries,
  ZonedTime,
} from './recurrence.types';
import {
  RangeWalker,
  floatingZone,
  newBudget,
  parseInstant,
  type RangeItem,
  type SortKey,
} from './range-walker';
import {
  compileRecurrence,
  formatRecurrenceId,
  isCompiled,
  type CompiledRecurrence,
  type CompiledTime,
} from './series.compiler';
import type { Zone } from '@platform/time';

export const MAX_LIMIT = 100_000;

const CURSOR = /^r1:(-?\d{1,16}):(-?\d{1,16})$/;

/** Opaque to callers: the sort key (start instant, recurrence id) of the last occurrence returned. */
export function encodeCursor(k: SortKey): string {
  return Buffer.from(`r1:${k.start}:${k.rid}`, 'utf8').toString('base64url');
}

export function decodeCursor(cursor: unknown): SortKey {
  const fail = () => new RecurrenceError(C.INVALID_CURSOR, R.BAD_VALUE, { part: String(cursor) });
  if (typeof cursor !== 'string' || cursor.length > 100 || !/^[A-Za-z0-9_-]+$/.test(cursor)) throw fail();
  const m = CURSOR.exec(Buffer.from(cursor, 'base64url').toString('utf8'));
  if (!m) throw fail();
  return { start: Number(m[1]), rid: Number(m[2]) };
}

function zoned(instant: number, zone: Zone): ZonedTime {
  const offset = zone.offsetAt(instant);
  return {
    local: formatWall(instant + offset),
    offset: formatOffset(offset),
    instant: formatInstant(instant),
    timeZone: zone.name,
  };
}

const dateOnly = (wallMs: number): DateOnly => ({ date: formatDay(Math.floor(wallMs / DAY_MS)) });

function formatTime(t: CompiledTime): ZonedTime | DateOnly {
  return t.kind === 'date' ? { date: formatDay(t.days) } : zoned(t.instantMs, t.zone);
}

function toOccurrence(c: CompiledRecurrence, item: RangeItem): Occurrence {
  const recurrenceId = formatRecurrenceId(item.ridKey, c.dateSeries);
  const o = item.override;
  if (!o)
    return { recurrenceId, ...generatedTimes(c, item.key, item.periodEnd), overridden: false, moved: false };
  const start = formatTime(o.start);
  let end: ZonedTime | DateOnly;
  if (o.end) end = formatTime(o.end);
  else if (o.start.kind === 'date') {
    end = dateOnly((o.start.days + (c.duration.kind === 'days' ? c.duration.days : 0)) * DAY_MS);
  } else end = zoned(item.end, c.endZone);
  const original = generatedTimes(c, item.ridKey, null);
  const moved = !sameTime(start, original.start) || !sameTime(end, original.end);
  return { recurrenceId, start, end, overridden: true, moved };
}

function sameTime(a: ZonedTime | DateOnly, b: ZonedTime | DateOnly): boolean {
  return 'date' in a ? 'date' in b && a.date === b.date : 'instant' in b && a.instant === b.instant;
}

/** Start and end of the occurrence the rule (or an RDATE) made at `key`. */
function generatedTimes(
  c: CompiledRecurrence,
  key: number,
  periodEnd: number | null,
): { start: ZonedTime | DateOnly; end: ZonedTime | DateOnly } {
  const d = c.duration;
  if (d.kind === 'days') return { start: dateOnly(key), end: dateOnly(key + d.days * DAY_MS) };
  if (periodEnd !== null) return { start: zoned(key, c.zone), end: zoned(periodEnd, c.zone) };
  const end =
    d.kind === 'exact'
      ? key + d.ms
      : c.endZone.toInstant(key + c.zone.offsetAt(key) + d.days * DAY_MS) + d.ms;
  return { start: zoned(key, c.zone), end: zoned(end, c.endZone) };
}

/**
 * Occurrences of a series that overlap [from, to), at most `limit`, in order of start (then
 * recurrence id), with a cursor for the next page. Never runs longer than `maxIterations` steps;
 * throws RecurrenceError (only) on bad input.
 */
export function expandRecurrence(
  series: RecurrenceSeries | CompiledRecurrence,
  options: ExpandOptions,
): ExpandResult {
  const c = isCompiled(series) ? series : compileRecurrence(series);
  if (typeof options !== 'object' || options === null)
    throw new RecurrenceError(C.INVALID_RANGE, R.BAD_VALUE);
  const from = parseInstant(options.from, 'from');
  const to = parseInstant(options.to, 'to');
  if (!(from < to))
    throw new RecurrenceError(C.INVALID_RANGE, R.OUT_OF_RANGE, { part: 'from must be before to' });
  const limit = options.limit;
  if (!Number.isSafeInteger(limit) || limit < 1 || limit > MAX_LIMIT) {
    throw new RecurrenceError(C.INVALID_RANGE, R.OUT_OF_RANGE, { part: `limit=${String(limit)}` });
  }
  const after = options.after === undefined || options.after === null ? null : decodeCursor(options.after);
  const budget = newBudget(options.maxIterations);
  const walker = new RangeWalker(c, from, to, floatingZone(options.floatingTimeZone), after, budget);
  const items: RangeItem[] = [];
  let item: RangeItem | null;
  while (items.length <= limit && (item = walker.next())) items.push(item);
  const more = items.length > limit;
  if (more) items.pop();
  const last = items[items.length - 1];
  const truncated = budget.stopped;
  return {
    occurrences: items.map((i) => toOccurrence(c, i)),
    nextCursor: last && (more || truncated) ? encodeCursor({ start: last.start, rid: last.ridKey }) : null,
    truncated,
    orphanedOverrides: walker.orphaned.map((k) => formatRecurrenceId(k, c.dateSeries)),
  };
}
