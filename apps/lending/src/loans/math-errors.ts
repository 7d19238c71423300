import { LoanMathError, LoanMathErrorCode } from './math';
import { LoanError, loanError } from './loans.errors';

/**
 * Runs loan mathematics on a contract's terms: a LoanMathError (terms the math refuses, e.g. a first due
 * date not after the disbursement, or a schedule past 2999) is the client's 422 LOAN_TERMS_INVALID
 * naming the input, never a 500; a result outside the exact range (LOAN_MATH_OVERFLOW: a schedule
 * totalling more than 10^15 minor units, an instalment past 2^53) is the client's 422 LOAN_MATH_OVERFLOW.
 */
export function withTerms<T>(compute: () => T): T {
  try {
    return compute();
  } catch (err) {
    // A result outside the exact range is its own reason: the terms are valid, the figures too large.
    if (err instanceof LoanMathError && err.code === LoanMathErrorCode.OVERFLOW)
      throw loanError(LoanError.MATH_OVERFLOW, { field: err.field }, { field: err.field });
    if (err instanceof LoanMathError)
      throw loanError(
        LoanError.TERMS_INVALID,
        { field: err.field },
        { field: err.field, mathCode: err.code },
      );
    throw err;
  }
}
