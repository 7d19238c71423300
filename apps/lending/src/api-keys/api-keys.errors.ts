import { defineErrors } from '@platform/envelope';

/**
 * Reasons of the key administration area (docs/lending/api-keys.md). Texts: apps/lending/src/i18n/
 * <lang>/api-keys.json, key `api-keys.errors.<reason>`, in the request's Language-Code. A missing
 * scope on the route itself is the common 403 SCOPE_MISSING.
 */
export enum ApiKeysError {
  /** No key with this id in the caller's organization (another organization's key reads the same). */
  NOT_FOUND = 'API_KEY_NOT_FOUND',
  /** The key is revoked, or past its reissue overlap: there is nothing to reissue. */
  NOT_LIVE = 'API_KEY_NOT_LIVE',
  /** The new key would hold scopes the calling key does not hold. */
  SCOPE_ESCALATION = 'API_KEY_SCOPE_ESCALATION',
  /** The organization holds API_KEYS_MAX_LIVE_PER_OWNER live keys: revoke one first. */
  LIMIT_REACHED = 'API_KEY_LIMIT_REACHED',
}

const key = (c: ApiKeysError) => `api-keys.errors.${c}`;

export const apiKeysError = defineErrors<ApiKeysError>({
  [ApiKeysError.NOT_FOUND]: { status: 404, messageKey: key(ApiKeysError.NOT_FOUND) },
  [ApiKeysError.NOT_LIVE]: { status: 409, messageKey: key(ApiKeysError.NOT_LIVE) },
  [ApiKeysError.SCOPE_ESCALATION]: { status: 403, messageKey: key(ApiKeysError.SCOPE_ESCALATION) },
  [ApiKeysError.LIMIT_REACHED]: { status: 409, messageKey: key(ApiKeysError.LIMIT_REACHED) },
});
