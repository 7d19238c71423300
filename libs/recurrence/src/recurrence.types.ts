/**
 * A point in time as the calendar stores it: a whole day (all-day events), or a date-time. A
 * date-time is a wall time 'YYYY-MM-DDTHH:mm[:ss]' in `timeZone` (IANA), or an instant with 'Z' or an
 * offset, read in `timeZone` when given (in UTC, or at that fixed offset, when not).
 */
export type EventTime = { date: string } | { dateTime: string; timeZone?: string };

/** An exception to one occurrence, keyed by RECURRENCE-ID (the occurrence's original start). */
export type RecurrenceOverride =
  | { recurrenceId: string; cancelled: true }
  | { recurrenceId: string; cancelled?: false; start: EventTime; end?: EventTime };

export interface RecurrenceSeries {
  /** DTSTART: the first occurrence, and the wall time (and zone) the rule is computed in. */
  start: EventTime;
  /** DTEND: the exact duration (timed) or the number of days (all-day) every occurrence keeps. */
  end?: EventTime;
  /** DURATION instead of `end` ('PT1H', 'P1D'): days are nominal (wall clock), hours exact. */
  duration?: string;
  /** Stored lines: 'RRULE:FREQ=WEEKLY;BYDAY=MO', 'EXDATE;TZID=Europe/Berlin:20261207T090000', ... */
  lines: readonly string[];
  overrides?: readonly RecurrenceOverride[];
}

/** An instant: ISO 8601 with 'Z' or an offset, epoch milliseconds, or a Date. */
export type InstantInput = string | number | Date;

export interface ExpandOptions {
  /** Range start (inclusive): an occurrence is in range when it overlaps [from, to). */
  from: InstantInput;
  /** Range end (exclusive). */
  to: InstantInput;
  /** At most this many occurrences (1..100000). */
  limit: number;
  /** `nextCursor` of the previous page of the same call. */
  after?: string | null;
  /** The zone all-day dates are read in to compare them with the range (default UTC). */
  floatingTimeZone?: string;
  /** Candidates and periods the engine may examine before it stops (default 500,000). */
  maxIterations?: number;
}

export interface ZonedTime {
  /** Wall time in `timeZone`: 'YYYY-MM-DDTHH:mm:ss'. */
  local: string;
  /** UTC offset at that instant: '+01:00'. */
  offset: string;
  /** 'YYYY-MM-DDTHH:mm:ssZ'. */
  instant: string;
  timeZone: string;
}

export interface DateOnly {
  /** 'YYYY-MM-DD'; an end date is exclusive, as DTEND is. */
  date: string;
}

export interface Occurrence {
  /** The original start: 'YYYY-MM-DDTHH:mm:ssZ' for timed series, 'YYYY-MM-DD' for all-day ones. */
  recurrenceId: string;
  start: ZonedTime | DateOnly;
  end: ZonedTime | DateOnly;
  /** An override applies to this occurrence. */
  overridden: boolean;
  /** The override moved it: start or end differs from the rule's. */
  moved: boolean;
}

export type StopReason = 'ITERATION_CAP' | 'EMPTY_ITERATION_CAP';

export interface ExpandResult {
  occurrences: Occurrence[];
  /** Pass as `after` (same series and range) for the next page; null when there is none. */
  nextCursor: string | null;
  /**
   * Set when a guard ended the expansion early, so the list may miss occurrences: ITERATION_CAP
   * (maxIterations examined) or EMPTY_ITERATION_CAP (a rule produced nothing for 100,000 periods in a
   * row, e.g. FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=30).
   */
  truncated: StopReason | null;
  /** Recurrence ids of moved overrides in range that match no occurrence of the series (ignored). */
  orphanedOverrides: string[];
}

export interface BusyInterval {
  /** Epoch milliseconds. */
  start: number;
  end: number;
}
