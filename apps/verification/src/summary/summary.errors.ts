import { defineErrors } from '@platform/envelope';

/**
 * The summary area's error reasons (docs/verification/summary.md, "Errors"). Texts:
 * apps/verification/src/i18n/<lang>/summary.json, key `summary.errors.<reason>`. An unknown case (or
 * another organization's) answers the cases area's CASE_NOT_FOUND.
 */
export enum SummaryError {
  NOT_FOUND = 'SUMMARY_NOT_FOUND',
  CASE_FINAL = 'SUMMARY_CASE_FINAL',
  CASE_AWAITING_APPLICANT = 'SUMMARY_CASE_AWAITING_APPLICANT',
}

const STATUS: Record<SummaryError, number> = {
  [SummaryError.NOT_FOUND]: 404,
  [SummaryError.CASE_FINAL]: 409,
  [SummaryError.CASE_AWAITING_APPLICANT]: 409,
};

export const summaryError = defineErrors<SummaryError>(
  Object.fromEntries(
    Object.values(SummaryError).map((c) => [c, { status: STATUS[c], messageKey: `summary.errors.${c}` }]),
  ) as Record<SummaryError, { status: number; messageKey: string }>,
);
