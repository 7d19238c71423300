import { Injectable } from '@nestjs/common';
import type { Language } from '@platform/i18n';
import type { Tx } from '@platform/persistence';
import type { OrganizationId } from '@platform/tenancy';
import { LoanTexts } from './loan-texts';
import type { Loan } from './loan.entity';
import { findLoanTransition, type LoanAction, type LoanStatus } from './loan-workflow';
import { LoanError, loanError } from './loans.errors';
import { LoansRepository, type LoanChange } from './loans.repository';

/**
 * The one place a loan's status changes: the move is checked against the workflow table and written in
 * the caller's transaction, under the loan's row lock (`lockOrFail`), so concurrent operations on a
 * loan serialise and each sees the status the previous one left.
 */
@Injectable()
export class LoanMoves {
  constructor(
    private readonly loans: LoansRepository,
    private readonly texts: LoanTexts,
  ) {}

  /** The loan locked for an operation, or 404 (another organization's id reads as unknown). */
  async lockOrFail(organizationId: OrganizationId, id: string, tx: Tx): Promise<Loan> {
    const loan = await this.loans.lock(organizationId, id, tx);
    if (!loan) throw loanError(LoanError.NOT_FOUND, { loanId: id });
    return loan;
  }

  /** 409 LOAN_TRANSITION_NOT_ALLOWED unless the table allows `action` from the loan's status to `to`. */
  check(loan: Loan, to: LoanStatus, action: LoanAction, lang: Language): void {
    if (!findLoanTransition(loan.status, to, action))
      throw loanError(
        LoanError.TRANSITION_NOT_ALLOWED,
        { fromName: this.texts.status(loan.status, lang), toName: this.texts.status(to, lang) },
        { from: loan.status, to, action },
      );
  }

  async move(
    organizationId: OrganizationId,
    loan: Loan,
    to: LoanStatus,
    action: LoanAction,
    lang: Language,
    tx: Tx,
    also: Omit<LoanChange, 'status'> = {},
  ): Promise<void> {
    this.check(loan, to, action, lang);
    await this.loans.change(organizationId, loan.id, { status: to, ...also }, tx);
    Object.assign(loan, { status: to, ...also });
  }

  /** 409 LOAN_NOT_ACTIVE for a money operation on a loan that is not active. */
  requireActive(loan: Loan, lang: Language): void {
    if (loan.status !== 'active')
      throw loanError(
        LoanError.NOT_ACTIVE,
        { statusName: this.texts.status(loan.status, lang) },
        { status: loan.status },
      );
  }
}
