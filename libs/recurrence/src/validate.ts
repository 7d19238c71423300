import { parseRecurrenceLines } from './recurrence-lines.parser';
import { RecurrenceError, type RecurrenceErrorCode, type RecurrenceReason } from './recurrence.errors';
import type { EventTime } from './recurrence.types';
import { compileRecurrence } from './series.compiler';

export type RecurrenceValidation =
  | { valid: true }
  | {
      valid: false;
      error: {
        code: RecurrenceErrorCode;
        reason: RecurrenceReason;
        line?: number;
        part?: string;
        message: string;
      };
    };

/**
 * For request validation: are these recurrence lines acceptable (and, given the series start, do
 * they fit it: no time-of-day parts on an all-day series)? Never throws on bad input.
 */
export function validateRecurrence(lines: readonly string[], start?: EventTime): RecurrenceValidation {
  try {
    if (start === undefined) parseRecurrenceLines(lines);
    else compileRecurrence({ start, lines });
    return { valid: true };
  } catch (e) {
    if (!(e instanceof RecurrenceError)) throw e;
    return {
      valid: false,
      error: { code: e.code, reason: e.reason, line: e.line, part: e.part, message: e.message },
    };
  }
}
