import { defineErrors } from '@platform/envelope';

export enum CalendarError {
  VERSION_CONFLICT = 'CALENDAR_VERSION_CONFLICT',
  NOT_OWNER = 'CALENDAR_NOT_OWNER',
  ACCOUNT_NOT_FOUND = 'CALENDAR_ACCOUNT_NOT_FOUND',
}

export const calendarError = defineErrors<CalendarError>({
  [CalendarError.VERSION_CONFLICT]: { status: 409, messageKey: 'calendar.errors.CALENDAR_VERSION_CONFLICT' },
  [CalendarError.NOT_OWNER]: { status: 403, messageKey: 'calendar.errors.CALENDAR_NOT_OWNER' },
  [CalendarError.ACCOUNT_NOT_FOUND]: {
    status: 404,
    messageKey: 'calendar.errors.CALENDAR_ACCOUNT_NOT_FOUND',
  },
});
