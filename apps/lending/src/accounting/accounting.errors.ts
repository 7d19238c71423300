import { defineErrors } from '@platform/envelope';

/**
 * The daily accounting file's error reasons (docs/lending/events.md, "Daily accounting file"). Texts:
 * apps/lending/src/i18n/<lang>/accounting.json, key `accounting.errors.<reason>`.
 */
export enum AccountingError {
  /** The day has not ended yet (today or later, UTC): it cannot be closed and has no file. */
  DAY_NOT_OVER = 'ACCOUNTING_DAY_NOT_OVER',
  /** The day has ended but is not closed yet: close it (CloseAccountingDay) or wait for the job. */
  DAY_NOT_CLOSED = 'ACCOUNTING_DAY_NOT_CLOSED',
  /** A day before the organization's first closed day: it has no file. */
  FILE_NOT_FOUND = 'ACCOUNTING_FILE_NOT_FOUND',
}

const STATUS: Record<AccountingError, number> = {
  [AccountingError.DAY_NOT_OVER]: 409,
  [AccountingError.DAY_NOT_CLOSED]: 409,
  [AccountingError.FILE_NOT_FOUND]: 404,
};

export const accountingError = defineErrors<AccountingError>(
  Object.fromEntries(
    Object.values(AccountingError).map((c) => [
      c,
      { status: STATUS[c], messageKey: `accounting.errors.${c}` },
    ]),
  ) as Record<AccountingError, { status: number; messageKey: string }>,
);
