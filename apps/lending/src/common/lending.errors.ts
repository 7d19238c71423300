import { defineErrors } from '@platform/envelope';

/**
 * Lending's error reasons (decision 0025 and docs/lending-api.md). Texts: apps/lending/src/i18n/<lang>/
 * lending.json, key `lending.errors.<reason>`, in the request's Language-Code.
 */
export enum LendingError {
  /** database-per-tenant: the organization has no database in the tenant registry. */
  TENANT_DATABASE_MISSING = 'LENDING_TENANT_DATABASE_MISSING',
  /** database-per-tenant: every tenant pool is busy and none may close to make room; retry shortly. */
  TENANT_CAPACITY = 'LENDING_TENANT_CAPACITY',
  /** `Api-Version` names a version this deployment does not serve (decision 0026). */
  API_VERSION_UNSUPPORTED = 'LENDING_API_VERSION_UNSUPPORTED',
}

const key = (c: LendingError) => `lending.errors.${c}`;

export const lendingError = defineErrors<LendingError>({
  [LendingError.TENANT_DATABASE_MISSING]: {
    status: 503,
    messageKey: key(LendingError.TENANT_DATABASE_MISSING),
  },
  [LendingError.TENANT_CAPACITY]: { status: 503, messageKey: key(LendingError.TENANT_CAPACITY) },
  [LendingError.API_VERSION_UNSUPPORTED]: {
    status: 400,
    messageKey: key(LendingError.API_VERSION_UNSUPPORTED),
  },
});
