import { defineErrors } from '@platform/envelope';

export enum CalendarError {
  VERSION_CONFLICT = 'CALENDAR_VERSION_CONFLICT',
  PRODUCT_MISMATCH = 'CALENDAR_PRODUCT_MISMATCH',
  ACCOUNT_NOT_FOUND = 'CALENDAR_ACCOUNT_NOT_FOUND',
  INVALID_TIME_RANGE = 'CALENDAR_INVALID_TIME_RANGE',
}

export const calendarError = defineErrors<CalendarError>({
  [CalendarError.VERSION_CONFLICT]: { status: 409, messageKey: 'calendar.errors.CALENDAR_VERSION_CONFLICT' },
  [CalendarError.PRODUCT_MISMATCH]: { status: 403, messageKey: 'calendar.errors.CALENDAR_PRODUCT_MISMATCH' },
  [CalendarError.ACCOUNT_NOT_FOUND]: {
    status: 404,
    messageKey: 'calendar.errors.CALENDAR_ACCOUNT_NOT_FOUND',
  },
  [CalendarError.INVALID_TIME_RANGE]: {
    status: 400,
    messageKey: 'calendar.errors.CALENDAR_INVALID_TIME_RANGE',
  },
});
