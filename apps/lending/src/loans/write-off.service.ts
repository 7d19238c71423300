import { Injectable } from '@nestjs/common';
import type { Language } from '@platform/i18n';
import type { OrganizationId } from '@platform/tenancy';
import type { IdempotentRequest } from '../idempotency/idempotent-request';
import { IdempotentOperations } from '../idempotency/idempotent-operations';
import type { WriteOffLoanRequest } from './dto/loan.request';
import type { WriteOffReason } from './events/loan-facts';
import type { WriteOffResponse } from './dto/ledger.response';
import { LoanAccruals } from './accruals/loan-accruals.service';
import { LoanEvents } from './events/loan-events';
import { principalOwed } from './ledger/balances';
import { LedgerRepository } from './ledger/ledger.repository';
import { LoanBook } from './ledger/loan-book';
import { Posting } from './ledger/posting';
import { todayUtc } from './loan-dates';
import { LoanMoves } from './loan-moves';
import { LoanViews } from './loan-views';

/**
 * WriteOffLoan (docs/lending/loans.md): active -> written_off, once per Idempotency-Key. What the
 * borrower owes (principal, accrued interest, penalties, fees) moves to credit losses; money the
 * lender owes the borrower (interest paid ahead, overpayments) stays on its accounts.
 */
@Injectable()
export class WriteOffService {
  constructor(
    private readonly idempotency: IdempotentOperations,
    private readonly moves: LoanMoves,
    private readonly ledger: LedgerRepository,
    private readonly book: LoanBook,
    private readonly views: LoanViews,
    private readonly events: LoanEvents,
    private readonly accruals: LoanAccruals,
  ) {}

  writeOff(
    organizationId: OrganizationId,
    keyId: string,
    op: IdempotentRequest,
    dto: WriteOffLoanRequest,
    lang: Language,
  ): Promise<WriteOffResponse> {
    return this.idempotency.run(organizationId, op, async (tx) => {
      const loan = await this.moves.lockOrFail(organizationId, dto.loanId, tx);
      this.moves.check(loan, 'written_off', 'WriteOffLoan', lang);
      // What accrued and fell overdue until today is posted first, and written off with the rest.
      await this.accruals.catchUp(organizationId, loan, todayUtc(), tx);
      const before = await this.book.position(organizationId, loan.id, tx);
      const b = before.balances;
      const owed = {
        loan_principal: Math.max(0, b.loan_principal),
        overdue_principal: Math.max(0, b.overdue_principal),
        interest_receivable: Math.max(0, b.interest_receivable),
        overdue_interest: Math.max(0, b.overdue_interest),
        penalty_receivable: Math.max(0, b.penalty_receivable),
        fee_receivable: Math.max(0, b.fee_receivable),
      };
      const amount = Object.values(owed).reduce((s, v) => s + v, 0);
      let transaction = null;
      if (amount > 0) {
        const p = new Posting().debit('credit_losses', amount);
        for (const [account, v] of Object.entries(owed)) p.credit(account as keyof typeof owed, v);
        transaction = await this.ledger.post(
          organizationId,
          {
            loanId: loan.id,
            kind: 'write_off',
            amount,
            valueDate: todayUtc(),
            idempotencyKey: op.key,
            details: { reason: dto.reason ?? null, ...owed },
            keyId,
          },
          p.lines(),
          tx,
        );
      }
      await this.moves.move(organizationId, loan, 'written_off', 'WriteOffLoan', lang, tx);
      const after = await this.book.position(organizationId, loan.id, tx);
      await this.events.record(tx, organizationId, {
        kind: 'written_off',
        loan,
        transaction,
        reason: dto.reason ?? null,
        reasonCode: (dto.reasonCode ?? 'uncollectable') as WriteOffReason,
        rowsBefore: before.rows,
        rows: after.rows,
        balances: after.balances,
      });
      return {
        transactionId: transaction?.id ?? null,
        amount,
        loan: this.views.loan(
          loan,
          { rows: after.rows, principalOutstanding: principalOwed(after.balances) },
          lang,
        ),
      };
    });
  }
}
