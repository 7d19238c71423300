/**
 * Why an availability computation refused its input. Every code is a client mistake (HTTP 400 once
 * wired); the values are already in the calendar's `CALENDAR_*` code space so the endpoint can add them
 * to `CalendarError` (with i18n keys) one to one.
 *
 * This module stays free of Nest and of `@platform/envelope` (whose index pulls in Nest), so it throws
 * its own typed error; the endpoint maps it to a `DomainError` through `calendarError`.
 */
export enum AvailabilityErrorReason {
  INVALID_RANGE = 'CALENDAR_AVAILABILITY_INVALID_RANGE',
  RANGE_TOO_LONG = 'CALENDAR_AVAILABILITY_RANGE_TOO_LONG',
  INVALID_INTERVAL = 'CALENDAR_AVAILABILITY_INVALID_INTERVAL',
  TOO_MANY_INTERVALS = 'CALENDAR_AVAILABILITY_TOO_MANY_INTERVALS',
  INVALID_TIME_ZONE = 'CALENDAR_AVAILABILITY_INVALID_TIME_ZONE',
  INVALID_WORKING_HOURS = 'CALENDAR_AVAILABILITY_INVALID_WORKING_HOURS',
  INVALID_WALL_TIME = 'CALENDAR_AVAILABILITY_INVALID_WALL_TIME',
  EMPTY_SPAN = 'CALENDAR_AVAILABILITY_EMPTY_SPAN',
  OVERLAPPING_SPANS = 'CALENDAR_AVAILABILITY_OVERLAPPING_SPANS',
  INVALID_PARTICIPANT = 'CALENDAR_AVAILABILITY_INVALID_PARTICIPANT',
  DUPLICATE_PARTICIPANT = 'CALENDAR_AVAILABILITY_DUPLICATE_PARTICIPANT',
  TOO_MANY_PARTICIPANTS = 'CALENDAR_AVAILABILITY_TOO_MANY_PARTICIPANTS',
  INVALID_DURATION = 'CALENDAR_AVAILABILITY_INVALID_DURATION',
  INVALID_BUFFER = 'CALENDAR_AVAILABILITY_INVALID_BUFFER',
  INVALID_GRANULARITY = 'CALENDAR_AVAILABILITY_INVALID_GRANULARITY',
  INVALID_MAX_RESULTS = 'CALENDAR_AVAILABILITY_INVALID_MAX_RESULTS',
  INVALID_OPTION = 'CALENDAR_AVAILABILITY_INVALID_OPTION',
  INVALID_CURSOR = 'CALENDAR_AVAILABILITY_INVALID_CURSOR',
}

/**
 * A refused input. `field` is a path into the input (`participants[2].workingHours.days.mon[0].end`),
 * `details` holds the limit or the offending value where it helps the caller fix the request.
 */
export class AvailabilityError extends Error {
  constructor(
    readonly reason: AvailabilityErrorReason,
    readonly field: string,
    readonly details: Readonly<Record<string, unknown>> = {},
  ) {
    super(`${reason} at ${field}`);
    this.name = 'AvailabilityError';
  }
}

export function isAvailabilityError(e: unknown): e is AvailabilityError {
  return e instanceof AvailabilityError;
}
