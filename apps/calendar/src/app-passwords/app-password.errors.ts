import { defineErrors } from '@platform/envelope';

/**
 * Reasons of CalDAV app passwords and of the `dav` scheme's Basic login (decision 0041). Texts:
 * apps/calendar/src/i18n/<lang>/calendar.json, key `calendar.errors.<reason>`. The CalDAV routes answer
 * the 401s with `WWW-Authenticate: Basic realm="Calendar", charset="UTF-8"` (their exception filter).
 */
export enum AppPasswordError {
  /** No active app password with this id of the caller (another person's or account's reads the same). */
  NOT_FOUND = 'CALENDAR_APP_PASSWORD_NOT_FOUND',
  /** The person holds CALENDAR_APP_PASSWORDS_PER_PERSON active app passwords: revoke one first. */
  LIMIT_REACHED = 'CALENDAR_APP_PASSWORD_LIMIT_REACHED',
  /** Basic credentials that are malformed, unknown, wrong or revoked: one answer for all. */
  DAV_CREDENTIALS_INVALID = 'CALENDAR_DAV_CREDENTIALS_INVALID',
  /** Too many failed logins for this username or from this address: every attempt waits `Retry-After`. */
  DAV_AUTH_RATE_LIMITED = 'CALENDAR_DAV_AUTH_RATE_LIMITED',
}

const key = (c: AppPasswordError) => `calendar.errors.${c}`;

export const appPasswordError = defineErrors<AppPasswordError>({
  [AppPasswordError.NOT_FOUND]: { status: 404, messageKey: key(AppPasswordError.NOT_FOUND) },
  [AppPasswordError.LIMIT_REACHED]: { status: 409, messageKey: key(AppPasswordError.LIMIT_REACHED) },
  [AppPasswordError.DAV_CREDENTIALS_INVALID]: {
    status: 401,
    messageKey: key(AppPasswordError.DAV_CREDENTIALS_INVALID),
  },
  [AppPasswordError.DAV_AUTH_RATE_LIMITED]: {
    status: 429,
    messageKey: key(AppPasswordError.DAV_AUTH_RATE_LIMITED),
  },
});
