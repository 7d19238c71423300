/**
 * The only error the loan mathematics throws (anything else is a bug). It is a RangeError, so a caller
 * that only checks `instanceof RangeError` (money out of the safe-integer range) also catches the rest.
 * `code` is stable: the service maps each one to its envelope reason and localised text; `field` names
 * the offending input (dotted path, e.g. `fees[1].amount`).
 */
export enum LoanMathErrorCode {
  /** An amount is not a safe integer of minor units, or is negative where it must not be. */
  INVALID_AMOUNT = 'LOAN_MATH_INVALID_AMOUNT',
  /** An annual rate is not a plain decimal percent string ("8", "19.99") in range. */
  INVALID_RATE = 'LOAN_MATH_INVALID_RATE',
  /** A date is not a real calendar day written YYYY-MM-DD, or dates are out of order. */
  INVALID_DATE = 'LOAN_MATH_INVALID_DATE',
  /** Term count, grace periods or holiday length out of range, or they leave no repayment period. */
  INVALID_TERM = 'LOAN_MATH_INVALID_TERM',
  /** A value outside its closed set (schedule type, day count, frequency, rounding, mode, component). */
  INVALID_OPTION = 'LOAN_MATH_INVALID_OPTION',
  /** An exact decimal string (accruals) is malformed. */
  INVALID_DECIMAL = 'LOAN_MATH_INVALID_DECIMAL',
  /** The allocation order names a component twice, or one that does not exist. */
  INVALID_ORDER = 'LOAN_MATH_INVALID_ORDER',
  /** A result would leave the safe-integer range (absurdly large loans or rates). */
  OVERFLOW = 'LOAN_MATH_OVERFLOW',
}

export class LoanMathError extends RangeError {
  constructor(
    readonly code: LoanMathErrorCode,
    readonly field: string,
    detail: string,
  ) {
    super(`${code}: ${field}: ${detail}`);
    this.name = 'LoanMathError';
  }
}

export const mathError = (code: LoanMathErrorCode, field: string, detail: string) =>
  new LoanMathError(code, field, detail);
