import { AvailabilityError, AvailabilityErrorReason as R } from './availability.errors';
import { assertBusyIntervals, assertRange, type BusyInterval, type TimeRange } from './intervals';
import type { FindSlotsRequest } from './slot-search.types';
import { DAY_MS, MINUTE_MS } from '@platform/time';
import { parseWorkingHours, type WorkingSchedule } from './working-hours';

/**
 * Bounds on one search. Every page computes and ranks all candidates of the range (see find-slots.ts),
 * so the work per call is bounded by these: at most 31 days / 5 minutes = 8,928 candidate starts,
 * 500 participants and 200,000 busy intervals, swept once or twice in O(intervals log intervals +
 * candidates + participants).
 */
export const SLOT_SEARCH_LIMITS = {
  maxRangeDays: 31,
  minGranularityMinutes: 5,
  maxDurationMinutes: 1440,
  maxBufferMinutes: 240,
  maxResults: 500,
  maxParticipants: 500,
  maxParticipantIdLength: 128,
  maxBusyIntervals: 200_000,
  maxCursorLength: 64,
} as const;

export interface NormalizedParticipant {
  id: string;
  required: boolean;
  busy: readonly BusyInterval[];
  schedule: WorkingSchedule | null;
}

/** A checked request, times in ms. */
export interface NormalizedSearch {
  participants: NormalizedParticipant[];
  range: TimeRange;
  durationMs: number;
  granularityMs: number;
  bufferBeforeMs: number;
  bufferAfterMs: number;
  tentativeAsFree: boolean;
  explain: boolean;
  maxResults: number;
  cursor: string | null;
}

const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

function integerIn(value: unknown, min: number, max: number, reason: R, field: string): number {
  if (!Number.isSafeInteger(value) || (value as number) < min || (value as number) > max) {
    throw new AvailabilityError(reason, field, { min, max });
  }
  return value as number;
}

function optionalBoolean(value: unknown, field: string): boolean {
  if (value === undefined || value === null) return false;
  if (typeof value !== 'boolean') throw new AvailabilityError(R.INVALID_OPTION, field);
  return value;
}

/**
 * Checks everything `findSlots` is given, before any work. Hostile values (wrong types, NaN, huge
 * numbers, duplicate ids, bad working hours) become an `AvailabilityError`, never a TypeError.
 */
export function normalizeSearch(request: FindSlotsRequest): NormalizedSearch {
  const req: unknown = request;
  if (!isPlainObject(req)) throw new AvailabilityError(R.INVALID_OPTION, 'request');
  const L = SLOT_SEARCH_LIMITS;

  assertRange(req.range, 'range');
  const range = { from: req.range.from, to: req.range.to };
  if (range.to - range.from > L.maxRangeDays * DAY_MS) {
    throw new AvailabilityError(R.RANGE_TOO_LONG, 'range', { maxDays: L.maxRangeDays });
  }
  const duration = integerIn(
    req.durationMinutes,
    1,
    L.maxDurationMinutes,
    R.INVALID_DURATION,
    'durationMinutes',
  );
  const granularity = integerIn(
    req.granularityMinutes,
    L.minGranularityMinutes,
    1440,
    R.INVALID_GRANULARITY,
    'granularityMinutes',
  );
  // A divisor of a day keeps the grid on the same wall-clock marks every UTC day.
  if (1440 % granularity !== 0) {
    throw new AvailabilityError(R.INVALID_GRANULARITY, 'granularityMinutes', { mustDivide: 1440 });
  }
  const before =
    req.bufferBeforeMinutes == null
      ? 0
      : integerIn(req.bufferBeforeMinutes, 0, L.maxBufferMinutes, R.INVALID_BUFFER, 'bufferBeforeMinutes');
  const after =
    req.bufferAfterMinutes == null
      ? 0
      : integerIn(req.bufferAfterMinutes, 0, L.maxBufferMinutes, R.INVALID_BUFFER, 'bufferAfterMinutes');
  const maxResults = integerIn(req.maxResults, 1, L.maxResults, R.INVALID_MAX_RESULTS, 'maxResults');
  const tentativeAsFree = optionalBoolean(req.tentativeAsFree, 'tentativeAsFree');
  const explain = optionalBoolean(req.explain, 'explain');
  const cursor = req.cursor ?? null;
  if (cursor !== null && (typeof cursor !== 'string' || cursor.length > L.maxCursorLength)) {
    throw new AvailabilityError(R.INVALID_CURSOR, 'cursor');
  }

  return {
    participants: normalizeParticipants(req.participants),
    range,
    durationMs: duration * MINUTE_MS,
    granularityMs: granularity * MINUTE_MS,
    bufferBeforeMs: before * MINUTE_MS,
    bufferAfterMs: after * MINUTE_MS,
    tentativeAsFree,
    explain,
    maxResults,
    cursor,
  };
}

function normalizeParticipants(list: unknown): NormalizedParticipant[] {
  const L = SLOT_SEARCH_LIMITS;
  if (!Array.isArray(list)) throw new AvailabilityError(R.INVALID_PARTICIPANT, 'participants');
  if (list.length > L.maxParticipants) {
    throw new AvailabilityError(R.TOO_MANY_PARTICIPANTS, 'participants', { max: L.maxParticipants });
  }
  const seen = new Set<string>();
  let intervals = 0;
  // Schedules are shared by reference when two participants send the same hours, so the expansion into
  // intervals (the costly part) can be cached per schedule by the caller.
  const schedules = new Map<string, WorkingSchedule>();
  return list.map((p: unknown, i): NormalizedParticipant => {
    const at = `participants[${i}]`;
    if (!isPlainObject(p)) throw new AvailabilityError(R.INVALID_PARTICIPANT, at);
    const { id, kind, required, busy, workingHours } = p;
    if (typeof id !== 'string' || id.length === 0 || id.length > L.maxParticipantIdLength) {
      throw new AvailabilityError(R.INVALID_PARTICIPANT, `${at}.id`, { maxLength: L.maxParticipantIdLength });
    }
    if (seen.has(id)) throw new AvailabilityError(R.DUPLICATE_PARTICIPANT, `${at}.id`, { id });
    seen.add(id);
    if (kind !== 'person' && kind !== 'resource')
      throw new AvailabilityError(R.INVALID_PARTICIPANT, `${at}.kind`);
    if (typeof required !== 'boolean') throw new AvailabilityError(R.INVALID_PARTICIPANT, `${at}.required`);
    assertBusyIntervals(busy, `${at}.busy`);
    intervals += busy.length;
    if (intervals > L.maxBusyIntervals) {
      throw new AvailabilityError(R.TOO_MANY_INTERVALS, `${at}.busy`, { max: L.maxBusyIntervals });
    }
    let schedule: WorkingSchedule | null = null;
    if (workingHours !== undefined && workingHours !== null) {
      const parsed = parseWorkingHours(workingHours, `${at}.workingHours`);
      const key = JSON.stringify(parsed);
      schedule = schedules.get(key) ?? parsed;
      schedules.set(key, schedule);
    }
    return { id, required, busy, schedule };
  });
}
