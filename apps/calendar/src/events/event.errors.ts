import { defineErrors, type ErrorSpec } from '@platform/envelope';

export enum CalendarError {
  VERSION_CONFLICT = 'CALENDAR_VERSION_CONFLICT',
  NOT_OWNER = 'CALENDAR_NOT_OWNER',
  ACCOUNT_NOT_FOUND = 'CALENDAR_ACCOUNT_NOT_FOUND',
  PRODUCT_NOT_FOUND = 'CALENDAR_PRODUCT_NOT_FOUND',
  GRANT_MISSING = 'CALENDAR_GRANT_MISSING',
  OWNER_ONLY = 'CALENDAR_OWNER_ONLY',
  INVALID_RANGE = 'CALENDAR_INVALID_RANGE',
  FILTER_NEEDS_READ = 'CALENDAR_FILTER_NEEDS_READ',
  // Conference rooms and invitations (decision 0017).
  EVENT_NOT_FOUND = 'CALENDAR_EVENT_NOT_FOUND',
  NOT_EVENT_OWNER = 'CALENDAR_NOT_EVENT_OWNER',
  NOT_INVITED = 'CALENDAR_NOT_INVITED',
  RSVP_TOKEN_INVALID = 'CALENDAR_RSVP_TOKEN_INVALID',
  RSVP_TOKEN_EXPIRED = 'CALENDAR_RSVP_TOKEN_EXPIRED',
  TOO_MANY_ATTENDEES = 'CALENDAR_TOO_MANY_ATTENDEES',
  // Recurrence (decision 0016; apps/calendar/src/recurrence).
  RECURRENCE_INVALID = 'CALENDAR_RECURRENCE_INVALID',
  RECURRENCE_OVERRIDE_INVALID = 'CALENDAR_RECURRENCE_OVERRIDE_INVALID',
  RECURRENCE_STORED_INVALID = 'CALENDAR_RECURRENCE_STORED_INVALID',
  EXPAND_CURSOR_INVALID = 'CALENDAR_EXPAND_CURSOR_INVALID',
  // The change journal's read (decision 0042): both carry the resync hint.
  JOURNAL_CURSOR_EXPIRED = 'CALENDAR_JOURNAL_CURSOR_EXPIRED',
  JOURNAL_CURSOR_UNKNOWN = 'CALENDAR_JOURNAL_CURSOR_UNKNOWN',
  // Refusals of the availability calculations (apps/calendar/src/availability/availability.errors.ts):
  // the same strings as AvailabilityErrorReason, mapped one to one by availability.service.ts.
  AVAILABILITY_INVALID_RANGE = 'CALENDAR_AVAILABILITY_INVALID_RANGE',
  AVAILABILITY_RANGE_TOO_LONG = 'CALENDAR_AVAILABILITY_RANGE_TOO_LONG',
  AVAILABILITY_INVALID_INTERVAL = 'CALENDAR_AVAILABILITY_INVALID_INTERVAL',
  AVAILABILITY_TOO_MANY_INTERVALS = 'CALENDAR_AVAILABILITY_TOO_MANY_INTERVALS',
  AVAILABILITY_INVALID_TIME_ZONE = 'CALENDAR_AVAILABILITY_INVALID_TIME_ZONE',
  AVAILABILITY_INVALID_WORKING_HOURS = 'CALENDAR_AVAILABILITY_INVALID_WORKING_HOURS',
  AVAILABILITY_INVALID_WALL_TIME = 'CALENDAR_AVAILABILITY_INVALID_WALL_TIME',
  AVAILABILITY_EMPTY_SPAN = 'CALENDAR_AVAILABILITY_EMPTY_SPAN',
  AVAILABILITY_OVERLAPPING_SPANS = 'CALENDAR_AVAILABILITY_OVERLAPPING_SPANS',
  AVAILABILITY_INVALID_PARTICIPANT = 'CALENDAR_AVAILABILITY_INVALID_PARTICIPANT',
  AVAILABILITY_DUPLICATE_PARTICIPANT = 'CALENDAR_AVAILABILITY_DUPLICATE_PARTICIPANT',
  AVAILABILITY_TOO_MANY_PARTICIPANTS = 'CALENDAR_AVAILABILITY_TOO_MANY_PARTICIPANTS',
  AVAILABILITY_INVALID_DURATION = 'CALENDAR_AVAILABILITY_INVALID_DURATION',
  AVAILABILITY_INVALID_BUFFER = 'CALENDAR_AVAILABILITY_INVALID_BUFFER',
  AVAILABILITY_INVALID_GRANULARITY = 'CALENDAR_AVAILABILITY_INVALID_GRANULARITY',
  AVAILABILITY_INVALID_MAX_RESULTS = 'CALENDAR_AVAILABILITY_INVALID_MAX_RESULTS',
  AVAILABILITY_INVALID_OPTION = 'CALENDAR_AVAILABILITY_INVALID_OPTION',
  AVAILABILITY_INVALID_CURSOR = 'CALENDAR_AVAILABILITY_INVALID_CURSOR',
}

/** The availability refusals, all 400. */
export type AvailabilityCode = Extract<CalendarError, `CALENDAR_AVAILABILITY_${string}`>;

const key = (c: CalendarError) => `calendar.errors.${c}`;

export const calendarError = defineErrors<CalendarError>({
  [CalendarError.VERSION_CONFLICT]: { status: 409, messageKey: key(CalendarError.VERSION_CONFLICT) },
  [CalendarError.NOT_OWNER]: { status: 403, messageKey: key(CalendarError.NOT_OWNER) },
  [CalendarError.ACCOUNT_NOT_FOUND]: { status: 404, messageKey: key(CalendarError.ACCOUNT_NOT_FOUND) },
  [CalendarError.PRODUCT_NOT_FOUND]: { status: 404, messageKey: key(CalendarError.PRODUCT_NOT_FOUND) },
  [CalendarError.GRANT_MISSING]: { status: 403, messageKey: key(CalendarError.GRANT_MISSING) },
  [CalendarError.OWNER_ONLY]: { status: 403, messageKey: key(CalendarError.OWNER_ONLY) },
  [CalendarError.INVALID_RANGE]: { status: 400, messageKey: key(CalendarError.INVALID_RANGE) },
  [CalendarError.FILTER_NEEDS_READ]: { status: 403, messageKey: key(CalendarError.FILTER_NEEDS_READ) },
  [CalendarError.EVENT_NOT_FOUND]: { status: 404, messageKey: key(CalendarError.EVENT_NOT_FOUND) },
  [CalendarError.NOT_EVENT_OWNER]: { status: 403, messageKey: key(CalendarError.NOT_EVENT_OWNER) },
  [CalendarError.NOT_INVITED]: { status: 403, messageKey: key(CalendarError.NOT_INVITED) },
  [CalendarError.RSVP_TOKEN_INVALID]: { status: 403, messageKey: key(CalendarError.RSVP_TOKEN_INVALID) },
  [CalendarError.RSVP_TOKEN_EXPIRED]: { status: 403, messageKey: key(CalendarError.RSVP_TOKEN_EXPIRED) },
  [CalendarError.TOO_MANY_ATTENDEES]: { status: 400, messageKey: key(CalendarError.TOO_MANY_ATTENDEES) },
  [CalendarError.RECURRENCE_INVALID]: { status: 400, messageKey: key(CalendarError.RECURRENCE_INVALID) },
  [CalendarError.RECURRENCE_OVERRIDE_INVALID]: {
    status: 400,
    messageKey: key(CalendarError.RECURRENCE_OVERRIDE_INVALID),
  },
  // The request is fine; the stored series (saved before write-time validation) is not.
  [CalendarError.RECURRENCE_STORED_INVALID]: {
    status: 422,
    messageKey: key(CalendarError.RECURRENCE_STORED_INVALID),
  },
  [CalendarError.EXPAND_CURSOR_INVALID]: {
    status: 400,
    messageKey: key(CalendarError.EXPAND_CURSOR_INVALID),
  },
  // Gone: the entries after it are no longer kept; only a new snapshot continues without a gap.
  [CalendarError.JOURNAL_CURSOR_EXPIRED]: {
    status: 410,
    messageKey: key(CalendarError.JOURNAL_CURSOR_EXPIRED),
  },
  // Past the account's last entry: another account's cursor, or one from before a restore.
  [CalendarError.JOURNAL_CURSOR_UNKNOWN]: {
    status: 400,
    messageKey: key(CalendarError.JOURNAL_CURSOR_UNKNOWN),
  },
  ...availabilitySpecs(),
});

/** Every availability refusal is a client mistake: 400, with its own message. */
function availabilitySpecs(): Record<AvailabilityCode, ErrorSpec> {
  const codes = Object.values(CalendarError).filter((c): c is AvailabilityCode =>
    c.startsWith('CALENDAR_AVAILABILITY_'),
  );
  return Object.fromEntries(codes.map((c) => [c, { status: 400, messageKey: key(c) }])) as Record<
    AvailabilityCode,
    ErrorSpec
  >;
}
