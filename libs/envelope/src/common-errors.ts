import { defineErrors } from './domain-error';

/** Errors every service can raise; their texts live in the i18n lib's `common` namespace. */
export enum CommonError {
  VALIDATION_FAILED = 'VALIDATION_FAILED',
  MALFORMED_BODY = 'MALFORMED_BODY',
  BODY_TOO_DEEP = 'BODY_TOO_DEEP',
  HEADERS_TOO_LARGE = 'HEADERS_TOO_LARGE',
  REQUEST_TIMEOUT = 'REQUEST_TIMEOUT',
  BAD_REQUEST = 'BAD_REQUEST',
  UNAUTHENTICATED = 'UNAUTHENTICATED',
  FORBIDDEN = 'FORBIDDEN',
  ROUTE_NOT_FOUND = 'ROUTE_NOT_FOUND',
  METHOD_NOT_ALLOWED = 'METHOD_NOT_ALLOWED',
  CONFLICT = 'CONFLICT',
  PAYLOAD_TOO_LARGE = 'PAYLOAD_TOO_LARGE',
  UNSUPPORTED_MEDIA_TYPE = 'UNSUPPORTED_MEDIA_TYPE',
  RATE_LIMITED = 'RATE_LIMITED',
  INTERNAL = 'INTERNAL',
  UPSTREAM_UNAVAILABLE = 'UPSTREAM_UNAVAILABLE',
  UPSTREAM_TIMEOUT = 'UPSTREAM_TIMEOUT',
  NOT_READY = 'NOT_READY',
  ROUTE_AUTH_UNDECLARED = 'ROUTE_AUTH_UNDECLARED',
  ROUTE_SCOPES_UNDECLARED = 'ROUTE_SCOPES_UNDECLARED',
  API_KEY_MISSING = 'API_KEY_MISSING',
  API_KEY_INVALID = 'API_KEY_INVALID',
  API_KEY_REVOKED = 'API_KEY_REVOKED',
  API_KEY_EXPIRED = 'API_KEY_EXPIRED',
  TENANT_HEADER_MISSING = 'TENANT_HEADER_MISSING',
  TENANT_MISMATCH = 'TENANT_MISMATCH',
  SESSION_INVALID = 'SESSION_INVALID',
  SCOPE_MISSING = 'SCOPE_MISSING',
  DOCS_LOGIN_REQUIRED = 'DOCS_LOGIN_REQUIRED',
  DOCS_NOT_FOUND = 'DOCS_NOT_FOUND',
}

export const commonError = defineErrors<CommonError>({
  [CommonError.VALIDATION_FAILED]: { status: 400, messageKey: 'common.errors.VALIDATION_FAILED' },
  [CommonError.MALFORMED_BODY]: { status: 400, messageKey: 'common.errors.MALFORMED_BODY' },
  [CommonError.BODY_TOO_DEEP]: { status: 400, messageKey: 'common.errors.BODY_TOO_DEEP' },
  [CommonError.HEADERS_TOO_LARGE]: { status: 431, messageKey: 'common.errors.HEADERS_TOO_LARGE' },
  [CommonError.REQUEST_TIMEOUT]: { status: 408, messageKey: 'common.errors.REQUEST_TIMEOUT' },
  [CommonError.BAD_REQUEST]: { status: 400, messageKey: 'common.errors.BAD_REQUEST' },
  [CommonError.UNAUTHENTICATED]: { status: 401, messageKey: 'common.errors.UNAUTHENTICATED' },
  [CommonError.FORBIDDEN]: { status: 403, messageKey: 'common.errors.FORBIDDEN' },
  [CommonError.ROUTE_NOT_FOUND]: { status: 404, messageKey: 'common.errors.ROUTE_NOT_FOUND' },
  [CommonError.METHOD_NOT_ALLOWED]: { status: 405, messageKey: 'common.errors.METHOD_NOT_ALLOWED' },
  [CommonError.CONFLICT]: { status: 409, messageKey: 'common.errors.CONFLICT' },
  [CommonError.PAYLOAD_TOO_LARGE]: { status: 413, messageKey: 'common.errors.PAYLOAD_TOO_LARGE' },
  [CommonError.UNSUPPORTED_MEDIA_TYPE]: { status: 415, messageKey: 'common.errors.UNSUPPORTED_MEDIA_TYPE' },
  [CommonError.RATE_LIMITED]: { status: 429, messageKey: 'common.errors.RATE_LIMITED' },
  [CommonError.INTERNAL]: { status: 500, messageKey: 'common.errors.INTERNAL' },
  [CommonError.UPSTREAM_UNAVAILABLE]: { status: 502, messageKey: 'common.errors.UPSTREAM_UNAVAILABLE' },
  [CommonError.UPSTREAM_TIMEOUT]: { status: 504, messageKey: 'common.errors.UPSTREAM_TIMEOUT' },
  [CommonError.NOT_READY]: { status: 503, messageKey: 'common.errors.NOT_READY' },
  [CommonError.ROUTE_AUTH_UNDECLARED]: { status: 403, messageKey: 'common.errors.ROUTE_AUTH_UNDECLARED' },
  [CommonError.ROUTE_SCOPES_UNDECLARED]: {
    status: 403,
    messageKey: 'common.errors.ROUTE_SCOPES_UNDECLARED',
  },
  [CommonError.API_KEY_MISSING]: { status: 401, messageKey: 'common.errors.API_KEY_MISSING' },
  [CommonError.API_KEY_INVALID]: { status: 401, messageKey: 'common.errors.API_KEY_INVALID' },
  [CommonError.API_KEY_REVOKED]: { status: 401, messageKey: 'common.errors.API_KEY_REVOKED' },
  [CommonError.API_KEY_EXPIRED]: { status: 401, messageKey: 'common.errors.API_KEY_EXPIRED' },
  [CommonError.TENANT_HEADER_MISSING]: { status: 400, messageKey: 'common.errors.TENANT_HEADER_MISSING' },
  [CommonError.TENANT_MISMATCH]: { status: 403, messageKey: 'common.errors.TENANT_MISMATCH' },
  [CommonError.SESSION_INVALID]: { status: 401, messageKey: 'common.errors.SESSION_INVALID' },
  [CommonError.SCOPE_MISSING]: { status: 403, messageKey: 'common.errors.SCOPE_MISSING' },
  [CommonError.DOCS_LOGIN_REQUIRED]: { status: 401, messageKey: 'common.errors.DOCS_LOGIN_REQUIRED' },
  [CommonError.DOCS_NOT_FOUND]: { status: 404, messageKey: 'common.errors.DOCS_NOT_FOUND' },
});

/** Maps an HTTP status raised by the framework (not by our code) to a common error code. */
export function commonErrorForStatus(status: number): CommonError {
  switch (status) {
    case 400:
      return CommonError.BAD_REQUEST;
    case 401:
      return CommonError.UNAUTHENTICATED;
    case 403:
      return CommonError.FORBIDDEN;
    case 404:
      return CommonError.ROUTE_NOT_FOUND;
    case 405:
      return CommonError.METHOD_NOT_ALLOWED;
    case 408:
      return CommonError.REQUEST_TIMEOUT;
    case 409:
      return CommonError.CONFLICT;
    case 413:
      return CommonError.PAYLOAD_TOO_LARGE;
    case 415:
      return CommonError.UNSUPPORTED_MEDIA_TYPE;
    case 429:
      return CommonError.RATE_LIMITED;
    case 431:
      return CommonError.HEADERS_TOO_LARGE;
    case 502:
      return CommonError.UPSTREAM_UNAVAILABLE;
    case 503:
      return CommonError.NOT_READY;
    case 504:
      return CommonError.UPSTREAM_TIMEOUT;
    default:
      return status >= 500 ? CommonError.INTERNAL : CommonError.BAD_REQUEST;
  }
}
