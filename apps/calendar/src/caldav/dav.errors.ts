import { defineErrors } from '@platform/envelope';
import { CALDAV, DAV } from './dav-xml';

/** CalDAV refusals (docs/caldav.md). Each is a WebDAV answer whose `DAV:error` names its precondition. */
export enum DavError {
  BODY_INVALID = 'CALDAV_BODY_INVALID',
  BODY_TOO_LARGE = 'CALDAV_BODY_TOO_LARGE',
  NOT_FOUND = 'CALDAV_NOT_FOUND',
  NOT_YOURS = 'CALDAV_NOT_YOURS',
  PRODUCT_EVENT_READ_ONLY = 'CALDAV_PRODUCT_EVENT_READ_ONLY',
  PRECONDITION_FAILED = 'CALDAV_PRECONDITION_FAILED',
  UID_CONFLICT = 'CALDAV_UID_CONFLICT',
  INVALID_CALENDAR_DATA = 'CALDAV_INVALID_CALENDAR_DATA',
  UNSUPPORTED_COMPONENT = 'CALDAV_UNSUPPORTED_COMPONENT',
  UNSUPPORTED_MEDIA_TYPE = 'CALDAV_UNSUPPORTED_MEDIA_TYPE',
  RESOURCE_TOO_LARGE = 'CALDAV_RESOURCE_TOO_LARGE',
  UNSUPPORTED_REPORT = 'CALDAV_UNSUPPORTED_REPORT',
  INVALID_FILTER = 'CALDAV_INVALID_FILTER',
  SYNC_TOKEN_INVALID = 'CALDAV_SYNC_TOKEN_INVALID',
  DEPTH_INFINITY = 'CALDAV_DEPTH_INFINITY',
  METHOD_NOT_ALLOWED = 'CALDAV_METHOD_NOT_ALLOWED',
  CALENDAR_EXISTS = 'CALDAV_CALENDAR_EXISTS',
  CALENDAR_NAME_INVALID = 'CALDAV_CALENDAR_NAME_INVALID',
  CALENDAR_NOT_EMPTY = 'CALDAV_CALENDAR_NOT_EMPTY',
  TOO_MANY_CALENDARS = 'CALDAV_TOO_MANY_CALENDARS',
  TOO_MANY_HREFS = 'CALDAV_TOO_MANY_HREFS',
}

const key = (c: DavError) => `calendar.errors.${c}`;

export const davError = defineErrors<DavError>({
  [DavError.BODY_INVALID]: { status: 400, messageKey: key(DavError.BODY_INVALID) },
  [DavError.BODY_TOO_LARGE]: { status: 413, messageKey: key(DavError.BODY_TOO_LARGE) },
  [DavError.NOT_FOUND]: { status: 404, messageKey: key(DavError.NOT_FOUND) },
  [DavError.NOT_YOURS]: { status: 403, messageKey: key(DavError.NOT_YOURS) },
  [DavError.PRODUCT_EVENT_READ_ONLY]: { status: 403, messageKey: key(DavError.PRODUCT_EVENT_READ_ONLY) },
  [DavError.PRECONDITION_FAILED]: { status: 412, messageKey: key(DavError.PRECONDITION_FAILED) },
  [DavError.UID_CONFLICT]: { status: 409, messageKey: key(DavError.UID_CONFLICT) },
  [DavError.INVALID_CALENDAR_DATA]: { status: 403, messageKey: key(DavError.INVALID_CALENDAR_DATA) },
  [DavError.UNSUPPORTED_COMPONENT]: { status: 403, messageKey: key(DavError.UNSUPPORTED_COMPONENT) },
  [DavError.UNSUPPORTED_MEDIA_TYPE]: { status: 415, messageKey: key(DavError.UNSUPPORTED_MEDIA_TYPE) },
  [DavError.RESOURCE_TOO_LARGE]: { status: 413, messageKey: key(DavError.RESOURCE_TOO_LARGE) },
  [DavError.UNSUPPORTED_REPORT]: { status: 403, messageKey: key(DavError.UNSUPPORTED_REPORT) },
  [DavError.INVALID_FILTER]: { status: 400, messageKey: key(DavError.INVALID_FILTER) },
  [DavError.SYNC_TOKEN_INVALID]: { status: 403, messageKey: key(DavError.SYNC_TOKEN_INVALID) },
  [DavError.DEPTH_INFINITY]: { status: 403, messageKey: key(DavError.DEPTH_INFINITY) },
  [DavError.METHOD_NOT_ALLOWED]: { status: 405, messageKey: key(DavError.METHOD_NOT_ALLOWED) },
  [DavError.CALENDAR_EXISTS]: { status: 405, messageKey: key(DavError.CALENDAR_EXISTS) },
  [DavError.CALENDAR_NAME_INVALID]: { status: 403, messageKey: key(DavError.CALENDAR_NAME_INVALID) },
  [DavError.CALENDAR_NOT_EMPTY]: { status: 409, messageKey: key(DavError.CALENDAR_NOT_EMPTY) },
  [DavError.TOO_MANY_CALENDARS]: { status: 403, messageKey: key(DavError.TOO_MANY_CALENDARS) },
  [DavError.TOO_MANY_HREFS]: { status: 403, messageKey: key(DavError.TOO_MANY_HREFS) },
});

/** The precondition element (RFC 4918 16, RFC 4791 1.3, RFC 6578 3.2) each refusal names, if any. */
export const DAV_PRECONDITIONS: Partial<Record<DavError, { ns: string; name: string }>> = {
  [DavError.NOT_YOURS]: { ns: DAV, name: 'need-privileges' },
  [DavError.PRODUCT_EVENT_READ_ONLY]: { ns: DAV, name: 'need-privileges' },
  [DavError.UID_CONFLICT]: { ns: CALDAV, name: 'no-uid-conflict' },
  [DavError.INVALID_CALENDAR_DATA]: { ns: CALDAV, name: 'valid-calendar-data' },
  [DavError.UNSUPPORTED_COMPONENT]: { ns: CALDAV, name: 'supported-calendar-component' },
  [DavError.UNSUPPORTED_MEDIA_TYPE]: { ns: CALDAV, name: 'supported-calendar-data' },
  [DavError.RESOURCE_TOO_LARGE]: { ns: CALDAV, name: 'max-resource-size' },
  [DavError.UNSUPPORTED_REPORT]: { ns: DAV, name: 'supported-report' },
  [DavError.INVALID_FILTER]: { ns: CALDAV, name: 'valid-filter' },
  [DavError.SYNC_TOKEN_INVALID]: { ns: DAV, name: 'valid-sync-token' },
  [DavError.DEPTH_INFINITY]: { ns: DAV, name: 'propfind-finite-depth' },
  [DavError.CALENDAR_EXISTS]: { ns: DAV, name: 'resource-must-be-null' },
  [DavError.CALENDAR_NAME_INVALID]: { ns: CALDAV, name: 'calendar-collection-location-ok' },
  [DavError.TOO_MANY_HREFS]: { ns: DAV, name: 'number-of-matches-within-limits' },
};
