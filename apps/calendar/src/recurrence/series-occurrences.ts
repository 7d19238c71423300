import {
  RecurrenceError,
  expandRecurrence,
  occurrenceIntervals,
  type CompiledRecurrence,
  type DateOnly,
  type Occurrence,
  type ZonedTime,
} from '@platform/recurrence';
import type { EventTimeView } from '../events/event.mapper';
import { compileStored, floatingZoneOf, type SeriesColumns } from './event-series';

/**
 * Occurrences of many recurring masters over a range, for the ranged events query. Bounded: at most
 * MAX_OCCURRENCES_PER_MASTER per master (the earliest), counted as intervals (no strings built); the
 * few that land on a page are expanded in full afterwards.
 */
export const MAX_OCCURRENCES_PER_MASTER = 500;

/** One occurrence: its master (index in the list), its position in the series' range, its times. */
export interface OccurrenceRef {
  master: number;
  /** Position among the master's occurrences in the range; -1: a series the engine refuses, shown as stored. */
  index: number;
  start: number;
  end: number;
}

export interface RangeMs {
  from: number;
  to: number;
}

/** The events query's overlap rule: starts before `to`, ends after `from` (an instant at `from` counts). */
const overlaps = (start: number, end: number, r: RangeMs) =>
  start < r.to && end >= r.from && (end > r.from || start === end);

/** Compiles each master; null for one the engine refuses (stored before write-time validation). */
export function compileMasters(masters: readonly SeriesColumns[]): (CompiledRecurrence | null)[] {
  return masters.map((m) => {
    try {
      return compileStored(m);
    } catch (e) {
      if (e instanceof RecurrenceError) return null;
      throw e;
    }
  });
}

/** Every occurrence of the masters overlapping the range (unsorted), each master bounded. */
export function occurrenceRefs(
  masters: readonly SeriesColumns[],
  compiled: readonly (CompiledRecurrence | null)[],
  range: RangeMs,
): OccurrenceRef[] {
  const refs: OccurrenceRef[] = [];
  masters.forEach((m, master) => {
    const c = compiled[master];
    if (!c) {
      // Refused by the engine: the stored first occurrence alone, like a plain event.
      if (m.startsAt && m.endsAt && overlaps(m.startsAt.getTime(), m.endsAt.getTime(), range)) {
        refs.push({ master, index: -1, start: m.startsAt.getTime(), end: m.endsAt.getTime() });
      }
      return;
    }
    let index = 0;
    for (const iv of occurrenceIntervals(c, { ...range, floatingTimeZone: floatingZoneOf(m) })) {
      refs.push({ master, index, start: iv.start, end: iv.end });
      if (++index >= MAX_OCCURRENCES_PER_MASTER) break;
    }
  });
  return refs;
}

/** The full occurrences of one master at the given positions (same walk as `occurrenceRefs`). */
export function occurrencesAt(
  m: SeriesColumns,
  c: CompiledRecurrence,
  range: RangeMs,
  indices: readonly number[],
): Map<number, Occurrence> {
  const last = Math.max(...indices);
  const { occurrences } = expandRecurrence(c, {
    ...range,
    limit: last + 1,
    floatingTimeZone: floatingZoneOf(m),
  });
  return new Map(indices.map((i) => [i, occurrences[i]] as const).filter(([, o]) => o !== undefined));
}

/**
 * An occurrence's time as event responses show times (`timeView`): a date (with the event's zone, if
 * any), or the wall time of its zone with the offset; an event without a zone gets the UTC instant.
 */
export function occurrenceTimeView(t: ZonedTime | DateOnly, eventTimeZone: string | null): EventTimeView {
  if ('date' in t) return { date: t.date, ...(eventTimeZone ? { time_zone: eventTimeZone } : {}) };
  if (!eventTimeZone) return { date_time: new Date(t.instant).toISOString() };
  return { date_time: `${t.local}${t.offset}`, time_zone: t.timeZone };
}
