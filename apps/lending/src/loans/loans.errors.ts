import { defineErrors } from '@platform/envelope';

/**
 * The loans area's error reasons (docs/lending/loans.md, "Errors"). Texts:
 * apps/lending/src/i18n/<lang>/loans.json, key `loans.errors.<reason>`; status names in them come
 * localised too.
 */
export enum LoanError {
  /** Unknown product id, or another organization's. */
  PRODUCT_NOT_FOUND = 'LOAN_PRODUCT_NOT_FOUND',
  /** Another product of the organization has this code. */
  PRODUCT_CODE_TAKEN = 'LOAN_PRODUCT_CODE_TAKEN',
  /** The product's terms contradict each other (min above max, grace leaving no repayment, ...). */
  PRODUCT_INVALID = 'LOAN_PRODUCT_INVALID',
  /** UpdateLoanProduct with a `version` that is no longer the product's. */
  PRODUCT_VERSION_CONFLICT = 'LOAN_PRODUCT_VERSION_CONFLICT',
  /** CreateLoan on a product that is switched off. */
  PRODUCT_INACTIVE = 'LOAN_PRODUCT_INACTIVE',
  /** Unknown loan id, or another organization's. */
  NOT_FOUND = 'LOAN_NOT_FOUND',
  /** CreateLoan: unknown application id, or another organization's. */
  APPLICATION_NOT_FOUND = 'LOAN_APPLICATION_NOT_FOUND',
  /** CreateLoan: the application is not approved (or accepted by the customer). */
  APPLICATION_NOT_APPROVED = 'LOAN_APPLICATION_NOT_APPROVED',
  /** CreateLoan: the application already has its loan. */
  APPLICATION_HAS_LOAN = 'LOAN_APPLICATION_HAS_LOAN',
  /** The product lends another currency than the application asks for. */
  CURRENCY_MISMATCH = 'LOAN_CURRENCY_MISMATCH',
  /** The amount is outside the product's limits. */
  AMOUNT_OUT_OF_RANGE = 'LOAN_AMOUNT_OUT_OF_RANGE',
  /** The amount exceeds what the application was approved for. */
  AMOUNT_ABOVE_APPROVED = 'LOAN_AMOUNT_ABOVE_APPROVED',
  /** The number of instalments is outside the product's limits. */
  TERM_OUT_OF_RANGE = 'LOAN_TERM_OUT_OF_RANGE',
  /** No `termCount` given, and the approved term in months does not convert to the product's frequency. */
  TERM_REQUIRED = 'LOAN_TERM_REQUIRED',
  /** The loan's status does not allow the move; the text names both statuses. */
  TRANSITION_NOT_ALLOWED = 'LOAN_TRANSITION_NOT_ALLOWED',
  /** A payment (or preview) on a loan that is not active. */
  NOT_ACTIVE = 'LOAN_NOT_ACTIVE',
  /** A value date in the future, before the disbursement, or before the loan's last transaction. */
  VALUE_DATE_OUT_OF_RANGE = 'LOAN_VALUE_DATE_OUT_OF_RANGE',
  /** The schedule cannot be built from these terms (e.g. a first due date not after disbursement). */
  TERMS_INVALID = 'LOAN_TERMS_INVALID',
  /**
   * An amount the operation would store leaves the exact range (docs/lending/loan-math.md, "Numbers"):
   * a schedule totalling more than 10^15 minor units, an instalment past 2^53, or a loan's ledger past
   * 2^52 - 1. Nothing is written.
   */
  MATH_OVERFLOW = 'LOAN_MATH_OVERFLOW',
  /** Unknown transaction id, another loan's, or another organization's. */
  TRANSACTION_NOT_FOUND = 'LOAN_TRANSACTION_NOT_FOUND',
  /** Only payments are reversed (not disbursements, write-offs or reversals). */
  TRANSACTION_NOT_REVERSIBLE = 'LOAN_TRANSACTION_NOT_REVERSIBLE',
  /** The payment was reversed already. */
  TRANSACTION_ALREADY_REVERSED = 'LOAN_TRANSACTION_ALREADY_REVERSED',
  /** A later transaction of the loan stands on this payment: reverse that one first. */
  TRANSACTION_NOT_LATEST = 'LOAN_TRANSACTION_NOT_LATEST',
  /** GetLoanSchedule with a version the loan's schedule never had. */
  SCHEDULE_VERSION_NOT_FOUND = 'LOAN_SCHEDULE_VERSION_NOT_FOUND',
  /** RestructureLoan or GrantPaymentHoliday that cannot apply (`problem`: nothing to change, nothing left). */
  SCHEDULE_CHANGE_INVALID = 'LOAN_SCHEDULE_CHANGE_INVALID',
  /** RunAccruals where the route is switched off (production, unless LENDING_ACCRUALS_ROUTE=on). */
  ACCRUALS_ROUTE_DISABLED = 'LOAN_ACCRUALS_ROUTE_DISABLED',
}

const STATUS: Record<LoanError, number> = {
  [LoanError.PRODUCT_NOT_FOUND]: 404,
  [LoanError.PRODUCT_CODE_TAKEN]: 409,
  [LoanError.PRODUCT_INVALID]: 422,
  [LoanError.PRODUCT_VERSION_CONFLICT]: 409,
  [LoanError.PRODUCT_INACTIVE]: 409,
  [LoanError.NOT_FOUND]: 404,
  [LoanError.APPLICATION_NOT_FOUND]: 404,
  [LoanError.APPLICATION_NOT_APPROVED]: 409,
  [LoanError.APPLICATION_HAS_LOAN]: 409,
  [LoanError.CURRENCY_MISMATCH]: 422,
  [LoanError.AMOUNT_OUT_OF_RANGE]: 422,
  [LoanError.AMOUNT_ABOVE_APPROVED]: 422,
  [LoanError.TERM_OUT_OF_RANGE]: 422,
  [LoanError.TERM_REQUIRED]: 422,
  [LoanError.TRANSITION_NOT_ALLOWED]: 409,
  [LoanError.NOT_ACTIVE]: 409,
  [LoanError.VALUE_DATE_OUT_OF_RANGE]: 422,
  [LoanError.TERMS_INVALID]: 422,
  [LoanError.MATH_OVERFLOW]: 422,
  [LoanError.TRANSACTION_NOT_FOUND]: 404,
  [LoanError.TRANSACTION_NOT_REVERSIBLE]: 409,
  [LoanError.TRANSACTION_ALREADY_REVERSED]: 409,
  [LoanError.TRANSACTION_NOT_LATEST]: 409,
  [LoanError.SCHEDULE_VERSION_NOT_FOUND]: 404,
  [LoanError.SCHEDULE_CHANGE_INVALID]: 422,
  [LoanError.ACCRUALS_ROUTE_DISABLED]: 403,
};

export const loanError = defineErrors<LoanError>(
  Object.fromEntries(
    Object.values(LoanError).map((c) => [c, { status: STATUS[c], messageKey: `loans.errors.${c}` }]),
  ) as Record<LoanError, { status: number; messageKey: string }>,
);
