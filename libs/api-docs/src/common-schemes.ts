import { CommonError } from '@platform/envelope';
import type { SchemeDoc } from './reference';

/** The reasons every tenant key scheme (libs/tenancy's key check) can answer. */
export const TENANT_KEY_REASONS: string[] = [
  CommonError.API_KEY_MISSING,
  CommonError.API_KEY_INVALID,
  CommonError.API_KEY_REVOKED,
  CommonError.API_KEY_EXPIRED,
  CommonError.TENANT_HEADER_MISSING,
  CommonError.TENANT_MISMATCH,
];

/** A key scheme of libs/tenancy: the key in `header`, its tenant in another header the operation lists. */
export const tenantKeyScheme = (header: string, description: string): SchemeDoc => ({
  header,
  description,
  reasons: TENANT_KEY_REASONS,
});

/** The envelope and language rules every service shares, for its reference's description. */
export const ENVELOPE_NOTE =
  'Every response is `{ success, code, error, value }`; lists are `value: { items, total }`. Errors carry `value.reason` (stable code), `value.requestId` and, for validation, `value.fields[]`; `error` is localised by `Language-Code`, then `Accept-Language` (en, ru, kk, uz, tr, es).';
