import { defineErrors } from '@platform/envelope';

/**
 * The cases area's error reasons (docs/verification-api.md, "Errors"). Texts:
 * apps/verification/src/i18n/<lang>/cases.json, key `cases.errors.<reason>`.
 */
export enum CasesError {
  NOT_FOUND = 'CASE_NOT_FOUND',
  TRANSITION_NOT_ALLOWED = 'CASE_TRANSITION_NOT_ALLOWED',
}

const STATUS: Record<CasesError, number> = {
  [CasesError.NOT_FOUND]: 404,
  [CasesError.TRANSITION_NOT_ALLOWED]: 409,
};

export const casesError = defineErrors<CasesError>(
  Object.fromEntries(
    Object.values(CasesError).map((c) => [c, { status: STATUS[c], messageKey: `cases.errors.${c}` }]),
  ) as Record<CasesError, { status: number; messageKey: string }>,
);
