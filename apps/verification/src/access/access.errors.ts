import { defineErrors } from '@platform/envelope';

/**
 * The access area's error reasons (docs/verification/access.md). Texts:
 * apps/verification/src/i18n/<lang>/access.json, key `access.errors.<reason>`. The token endpoint
 * itself answers RFC 6749 errors instead (oauth-request.ts).
 */
export enum AccessError {
  IP_NOT_ALLOWED = 'IP_NOT_ALLOWED',
  BEARER_TOKEN_INVALID = 'BEARER_TOKEN_INVALID',
  BEARER_TOKEN_EXPIRED = 'BEARER_TOKEN_EXPIRED',
  BEARER_TOKEN_REVOKED = 'BEARER_TOKEN_REVOKED',
  IP_ALLOWLIST_INVALID = 'IP_ALLOWLIST_INVALID',
  IP_ALLOWLIST_LOCKOUT = 'IP_ALLOWLIST_LOCKOUT',
  ACTIVITY_RANGE_INVALID = 'ACTIVITY_RANGE_INVALID',
}

const STATUS: Record<AccessError, number> = {
  [AccessError.IP_NOT_ALLOWED]: 403,
  [AccessError.BEARER_TOKEN_INVALID]: 401,
  [AccessError.BEARER_TOKEN_EXPIRED]: 401,
  [AccessError.BEARER_TOKEN_REVOKED]: 401,
  [AccessError.IP_ALLOWLIST_INVALID]: 400,
  [AccessError.IP_ALLOWLIST_LOCKOUT]: 422,
  [AccessError.ACTIVITY_RANGE_INVALID]: 400,
};

export const accessError = defineErrors<AccessError>(
  Object.fromEntries(
    Object.values(AccessError).map((c) => [c, { status: STATUS[c], messageKey: `access.errors.${c}` }]),
  ) as Record<AccessError, { status: number; messageKey: string }>,
);
