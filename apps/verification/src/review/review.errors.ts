import { defineErrors } from '@platform/envelope';

/**
 * The manual-review area's error reasons (docs/verification/manual-review.md, "Errors"). Texts:
 * apps/verification/src/i18n/<lang>/review.json, key `review.errors.<reason>`. An unknown case (or
 * another organization's) answers the cases area's CASE_NOT_FOUND.
 */
export enum ReviewError {
  TASK_NOT_FOUND = 'REVIEW_TASK_NOT_FOUND',
  TASK_CLOSED = 'REVIEW_TASK_CLOSED',
  TASK_ALREADY_OPEN = 'REVIEW_TASK_ALREADY_OPEN',
  CASE_FINAL = 'REVIEW_CASE_FINAL',
  CASE_AWAITING_APPLICANT = 'REVIEW_CASE_AWAITING_APPLICANT',
}

const STATUS: Record<ReviewError, number> = {
  [ReviewError.TASK_NOT_FOUND]: 404,
  [ReviewError.TASK_CLOSED]: 409,
  [ReviewError.TASK_ALREADY_OPEN]: 409,
  [ReviewError.CASE_FINAL]: 409,
  [ReviewError.CASE_AWAITING_APPLICANT]: 409,
};

export const reviewError = defineErrors<ReviewError>(
  Object.fromEntries(
    Object.values(ReviewError).map((c) => [c, { status: STATUS[c], messageKey: `review.errors.${c}` }]),
  ) as Record<ReviewError, { status: number; messageKey: string }>,
);
