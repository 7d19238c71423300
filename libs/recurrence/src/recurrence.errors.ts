/** What went wrong, by input: the app maps each code to its own status and message key. */
export enum RecurrenceErrorCode {
  /** A recurrence line (RRULE, EXRULE, RDATE, EXDATE) or a rule part is malformed or not allowed. */
  INVALID = 'RECURRENCE_INVALID',
  /** The series start, end or duration is malformed, or does not fit the rule. */
  INVALID_START = 'RECURRENCE_INVALID_START',
  /** An override is malformed or repeats a recurrence id. */
  INVALID_OVERRIDE = 'RECURRENCE_INVALID_OVERRIDE',
  /** The expansion range or limit is malformed. */
  INVALID_RANGE = 'RECURRENCE_INVALID_RANGE',
  /** The continuation cursor was not produced by this engine for an equivalent call. */
  INVALID_CURSOR = 'RECURRENCE_INVALID_CURSOR',
}

/** Why, in more detail: one value per kind of mistake, stable for clients and tests. */
export enum RecurrenceReason {
  LINE_SYNTAX = 'LINE_SYNTAX',
  UNKNOWN_PROPERTY = 'UNKNOWN_PROPERTY',
  BAD_PARAMETER = 'BAD_PARAMETER',
  TOO_LARGE = 'TOO_LARGE',
  MISSING_FREQ = 'MISSING_FREQ',
  UNKNOWN_PART = 'UNKNOWN_PART',
  UNSUPPORTED_PART = 'UNSUPPORTED_PART',
  DUPLICATE_PART = 'DUPLICATE_PART',
  BAD_VALUE = 'BAD_VALUE',
  OUT_OF_RANGE = 'OUT_OF_RANGE',
  COUNT_WITH_UNTIL = 'COUNT_WITH_UNTIL',
  /** RFC 5545's "MUST NOT": e.g. BYWEEKNO outside YEARLY, BYMONTHDAY with WEEKLY, 1MO with DAILY. */
  PART_NOT_ALLOWED = 'PART_NOT_ALLOWED',
  BYSETPOS_ALONE = 'BYSETPOS_ALONE',
  UNKNOWN_TIME_ZONE = 'UNKNOWN_TIME_ZONE',
  /** A time-of-day rule part or a sub-daily FREQ on an all-day (DATE) series. */
  TIME_ON_DATE_SERIES = 'TIME_ON_DATE_SERIES',
  END_BEFORE_START = 'END_BEFORE_START',
  MIXED_VALUE_TYPES = 'MIXED_VALUE_TYPES',
  DUPLICATE_RECURRENCE_ID = 'DUPLICATE_RECURRENCE_ID',
}

export interface RecurrenceErrorDetails {
  /** Index of the offending line in the input array. */
  line?: number;
  /** The offending part or value, cut to 100 characters. */
  part?: string;
}

/** The only error the engine throws (anything else is a bug). */
export class RecurrenceError extends Error {
  readonly line?: number;
  readonly part?: string;

  constructor(
    readonly code: RecurrenceErrorCode,
    readonly reason: RecurrenceReason,
    details: RecurrenceErrorDetails = {},
    message?: string,
  ) {
    const part = details.part === undefined ? undefined : cut(details.part);
    super(
      message ??
        `${code}: ${reason}${part !== undefined ? ` (${part})` : ''}${details.line !== undefined ? ` at line ${details.line}` : ''}`,
    );
    this.name = 'RecurrenceError';
    this.line = details.line;
    this.part = part;
  }
}

function cut(s: string): string {
  return s.length > 100 ? `${s.slice(0, 97)}...` : s;
}

export const invalid = (reason: RecurrenceReason, part?: string, line?: number) =>
  new RecurrenceError(RecurrenceErrorCode.INVALID, reason, { part, line });
