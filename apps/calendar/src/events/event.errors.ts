import { defineErrors } from '@platform/envelope';

export enum CalendarError {
  VERSION_CONFLICT = 'CALENDAR_VERSION_CONFLICT',
  NOT_OWNER = 'CALENDAR_NOT_OWNER',
  ACCOUNT_NOT_FOUND = 'CALENDAR_ACCOUNT_NOT_FOUND',
  PRODUCT_NOT_FOUND = 'CALENDAR_PRODUCT_NOT_FOUND',
  GRANT_MISSING = 'CALENDAR_GRANT_MISSING',
  OWNER_ONLY = 'CALENDAR_OWNER_ONLY',
  INVALID_RANGE = 'CALENDAR_INVALID_RANGE',
  FILTER_NEEDS_READ = 'CALENDAR_FILTER_NEEDS_READ',
}

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
});
