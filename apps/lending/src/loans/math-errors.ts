import { LoanMathError } from './math';
import { LoanError, loanError } from './loans.errors';

/**
 * Runs loan mathematics on a contract's terms: a LoanMathError (terms the math refuses, e.g. a first due
 * date not after the disbursement, or a schedule past 2999) is the client's 422 LOAN_TERMS_INVALID
 * naming the input, never a 500.
 */
export function withTerms<T>(compute: () => T): T {
  try {
    return compute();
  } catch (err) {
    if (err instanceof LoanMathError)
      throw loanError(
        LoanError.TERMS_INVALID,
        { field: err.field },
        { field: err.field, mathCode: err.code },
      );
    throw err;
  }
}
