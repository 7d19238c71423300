import { AvailabilityError, AvailabilityErrorReason as R } from './availability.errors';

/** A half-open span of time [start, end) in epoch milliseconds. */
export interface Interval {
  start: number;
  end: number;
}

/** A query range [from, to) in epoch milliseconds. */
export interface TimeRange {
  from: number;
  to: number;
}

/** `busy`: opaque busy time. `tentative`: the person may attend something else (not yet accepted). */
export type BusyKind = 'busy' | 'tentative';

export interface BusyInterval extends Interval {
  kind: BusyKind;
}

/**
 * The instants this module accepts: 1970-01-01 up to 9999-12-01 UTC. Nothing before the epoch (a
 * cursor carries a start as plain digits) and a margin before year 10000 for the day arithmetic of
 * working hours.
 */
export const MIN_INSTANT = 0;
export const MAX_INSTANT = Date.UTC(9999, 11, 1);

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null;

/** Checks a query range: integers, `from < to`, both within [MIN_INSTANT, MAX_INSTANT]. */
export function assertRange(range: unknown, field = 'range'): asserts range is TimeRange {
  if (!isObject(range)) throw new AvailabilityError(R.INVALID_RANGE, field);
  const { from, to } = range;
  for (const [name, v] of [
    ['from', from],
    ['to', to],
  ] as const) {
    if (!Number.isSafeInteger(v) || (v as number) < MIN_INSTANT || (v as number) > MAX_INSTANT) {
      throw new AvailabilityError(R.INVALID_RANGE, `${field}.${name}`, {
        min: MIN_INSTANT,
        max: MAX_INSTANT,
      });
    }
  }
  if ((from as number) >= (to as number)) throw new AvailabilityError(R.INVALID_RANGE, field);
}

/**
 * Checks a list of busy intervals: finite numbers, `start <= end`, a known kind. A zero-length
 * interval is allowed (it blocks nothing); `end < start` is refused rather than silently dropped,
 * because it means the data is broken.
 */
export function assertBusyIntervals(list: unknown, field: string): asserts list is readonly BusyInterval[] {
  if (!Array.isArray(list)) throw new AvailabilityError(R.INVALID_INTERVAL, field);
  for (let i = 0; i < list.length; i++) {
    const iv: unknown = list[i];
    if (
      !isObject(iv) ||
      typeof iv.start !== 'number' ||
      typeof iv.end !== 'number' ||
      !Number.isFinite(iv.start) ||
      !Number.isFinite(iv.end) ||
      iv.end < iv.start ||
      (iv.kind !== 'busy' && iv.kind !== 'tentative')
    ) {
      throw new AvailabilityError(R.INVALID_INTERVAL, `${field}[${i}]`);
    }
  }
}

const byStart = (a: Interval, b: Interval) => a.start - b.start || a.end - b.end;

/** Sorts by start and merges overlapping or touching intervals. O(n log n); the input is not modified. */
export function mergeIntervals(intervals: readonly Interval[]): Interval[] {
  return mergeSorted([...intervals].sort(byStart));
}

/** Merges intervals already sorted by start. Empty intervals are dropped. O(n). */
function mergeSorted(sorted: readonly Interval[]): Interval[] {
  const out: Interval[] = [];
  let cur: Interval | null = null;
  for (const iv of sorted) {
    if (iv.end <= iv.start) continue;
    if (cur && iv.start <= cur.end) {
      if (iv.end > cur.end) cur.end = iv.end;
    } else {
      cur = { start: iv.start, end: iv.end };
      out.push(cur);
    }
  }
  return out;
}

/** `a` minus `b`, both sorted and merged (as `mergeIntervals` returns them). O(|a| + |b|). */
export function subtractIntervals(a: readonly Interval[], b: readonly Interval[]): Interval[] {
  const out: Interval[] = [];
  let j = 0;
  for (const iv of a) {
    let start = iv.start;
    while (j < b.length && b[j].end <= start) j++;
    // b[k] for k >= j all end after `start`; walk those that begin before iv ends.
    let k = j;
    while (k < b.length && b[k].start < iv.end) {
      if (b[k].start > start) out.push({ start, end: b[k].start });
      start = Math.max(start, b[k].end);
      if (start >= iv.end) break;
      k++;
    }
    if (start < iv.end) out.push({ start, end: iv.end });
  }
  return out;
}

/** The intersection of two sorted, merged lists. O(|a| + |b|). */
export function intersectIntervals(a: readonly Interval[], b: readonly Interval[]): Interval[] {
  const out: Interval[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    const start = Math.max(a[i].start, b[j].start);
    const end = Math.min(a[i].end, b[j].end);
    if (start < end) out.push({ start, end });
    if (a[i].end < b[j].end) i++;
    else j++;
  }
  return out;
}

/** Intervals cut to [range.from, range.to); those outside (or empty after the cut) are dropped. */
export function clipIntervals<T extends Interval>(intervals: readonly T[], range: TimeRange): T[] {
  const out: T[] = [];
  for (const iv of intervals) {
    const start = Math.max(iv.start, range.from);
    const end = Math.min(iv.end, range.to);
    if (start < end) out.push({ ...iv, start, end });
  }
  return out;
}

/**
 * One participant's free/busy answer for [range.from, range.to):
 *
 * - every interval is cut to the range;
 * - overlapping or touching `busy` intervals merge, and so do `tentative` ones among themselves;
 * - where busy and tentative overlap, busy wins: the tentative interval is cut around the busy one (a
 *   tentative meeting inside a busy block disappears, one that straddles it leaves its outer parts);
 * - the result is sorted by start, no two intervals overlap, each has one kind. A busy and a tentative
 *   interval may touch (they have different kinds, so they do not merge).
 *
 * Zero-length intervals block nothing and are dropped. Cancelled and transparent events are the
 * caller's business: it passes only what blocks time.
 *
 * O(n log n) for the sort, linear after it.
 *
 * @throws AvailabilityError INVALID_RANGE, INVALID_INTERVAL
 */
export function mergeBusy(intervals: readonly BusyInterval[], range: TimeRange): BusyInterval[] {
  assertRange(range);
  assertBusyIntervals(intervals, 'intervals');
  return normalizeBusy(intervals, range);
}

/** `mergeBusy` without the checks, for callers that have already validated their input. */
export function normalizeBusy(intervals: readonly BusyInterval[], range: TimeRange): BusyInterval[] {
  const busy: Interval[] = [];
  const tentative: Interval[] = [];
  for (const iv of intervals) {
    const start = Math.max(iv.start, range.from);
    const end = Math.min(iv.end, range.to);
    if (start >= end) continue;
    (iv.kind === 'busy' ? busy : tentative).push({ start, end });
  }
  const b = mergeSorted(busy.sort(byStart));
  const t = subtractIntervals(mergeSorted(tentative.sort(byStart)), b);
  // Interleave two sorted lists that do not overlap each other.
  const out: BusyInterval[] = new Array(b.length + t.length);
  let i = 0;
  let j = 0;
  let k = 0;
  while (i < b.length || j < t.length) {
    if (j >= t.length || (i < b.length && b[i].start < t[j].start)) {
      out[k++] = { start: b[i].start, end: b[i].end, kind: 'busy' };
      i++;
    } else {
      out[k++] = { start: t[j].start, end: t[j].end, kind: 'tentative' };
      j++;
    }
  }
  return out;
}

export interface ParticipantBusy {
  id: string;
  intervals: readonly BusyInterval[];
}

export interface ParticipantFreeBusy {
  id: string;
  intervals: BusyInterval[];
}

/**
 * `GET /Calendar/freebusy`: `mergeBusy` for each participant, in the input order. The whole input is
 * checked before any work is done, so a bad interval of the last participant fails the call early.
 * O(N log N) over all intervals.
 *
 * @throws AvailabilityError INVALID_RANGE, INVALID_PARTICIPANT, INVALID_INTERVAL
 */
export function freeBusy(participants: readonly ParticipantBusy[], range: TimeRange): ParticipantFreeBusy[] {
  assertRange(range);
  if (!Array.isArray(participants)) throw new AvailabilityError(R.INVALID_PARTICIPANT, 'participants');
  participants.forEach((p: unknown, i) => {
    if (!isObject(p) || typeof p.id !== 'string') {
      throw new AvailabilityError(R.INVALID_PARTICIPANT, `participants[${i}]`);
    }
    assertBusyIntervals(p.intervals, `participants[${i}].intervals`);
  });
  return participants.map((p) => ({ id: p.id, intervals: normalizeBusy(p.intervals, range) }));
}
