import { defineErrors } from '@platform/envelope';

/**
 * The checks area's error reasons (docs/verification/checks.md, "Errors"). Texts:
 * apps/verification/src/i18n/<lang>/checks.json, key `checks.errors.<reason>`. An unknown case (or
 * another organization's) answers the cases area's CASE_NOT_FOUND.
 */
export enum ChecksError {
  CASE_FINAL = 'PROVIDER_CHECK_CASE_FINAL',
  PROVIDER_UNAVAILABLE = 'IDENTITY_PROVIDER_UNAVAILABLE',
}

const STATUS: Record<ChecksError, number> = {
  [ChecksError.CASE_FINAL]: 409,
  [ChecksError.PROVIDER_UNAVAILABLE]: 502,
};

export const checksError = defineErrors<ChecksError>(
  Object.fromEntries(
    Object.values(ChecksError).map((c) => [c, { status: STATUS[c], messageKey: `checks.errors.${c}` }]),
  ) as Record<ChecksError, { status: number; messageKey: string }>,
);
