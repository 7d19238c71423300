import { defineErrors } from '@platform/envelope';

/**
 * The reports area's error reasons (docs/verification/reports.md, "Errors"). Texts:
 * apps/verification/src/i18n/<lang>/reports.json, key `reports.errors.<reason>`.
 */
export enum ReportsError {
  SUMMARY_NOT_FOUND = 'SUMMARY_NOT_FOUND',
  REPORT_NOT_FOUND = 'REPORT_NOT_FOUND',
  REPORT_ALREADY_REVOKED = 'REPORT_ALREADY_REVOKED',
  REPORT_REVOKED = 'REPORT_REVOKED',
  REPORT_PASSWORD_INVALID = 'REPORT_PASSWORD_INVALID',
  REPORT_PASSWORD_MISSING = 'REPORT_PASSWORD_MISSING',
  REPORT_CHECK_INPUT_INVALID = 'REPORT_CHECK_INPUT_INVALID',
  REPORT_CHECK_EMPTY = 'REPORT_CHECK_EMPTY',
  REPORT_CHECK_TOO_LARGE = 'REPORT_CHECK_TOO_LARGE',
  REPORT_CHECK_UNSUPPORTED_MEDIA = 'REPORT_CHECK_UNSUPPORTED_MEDIA',
}

const STATUS: Record<ReportsError, number> = {
  [ReportsError.SUMMARY_NOT_FOUND]: 404,
  [ReportsError.REPORT_NOT_FOUND]: 404,
  [ReportsError.REPORT_ALREADY_REVOKED]: 409,
  [ReportsError.REPORT_REVOKED]: 410,
  [ReportsError.REPORT_PASSWORD_INVALID]: 403,
  [ReportsError.REPORT_PASSWORD_MISSING]: 400,
  [ReportsError.REPORT_CHECK_INPUT_INVALID]: 400,
  [ReportsError.REPORT_CHECK_EMPTY]: 400,
  [ReportsError.REPORT_CHECK_TOO_LARGE]: 413,
  [ReportsError.REPORT_CHECK_UNSUPPORTED_MEDIA]: 415,
};

export const reportsError = defineErrors<ReportsError>(
  Object.fromEntries(
    Object.values(ReportsError).map((c) => [c, { status: STATUS[c], messageKey: `reports.errors.${c}` }]),
  ) as Record<ReportsError, { status: number; messageKey: string }>,
);
