import { Injectable } from '@nestjs/common';
import type { Language } from '@platform/i18n';
import type { OrganizationId } from '@platform/tenancy';
import type { IdempotentRequest } from '@platform/idempotency';
import type { WriteOffLoanRequest } from './dto/loan.request';
import type { WriteOffResponse } from './dto/ledger.response';
import type { WriteOffReason } from './events/loan-facts';
import { principalOwed, type AccountBalances } from './ledger/balances';
import { Posting } from './ledger/posting';
import { LoanViews } from './loan-views';
import type { MoneyOperation, MoneyPlan } from './operations/money-operation';
import { MoneyPipeline } from './operations/money-pipeline';

interface WriteOffPlan extends MoneyPlan {
  amount: number;
}

/** What the borrower owes, per account: each positive balance of a debt account. */
export function owedOf(b: AccountBalances) {
  return {
    loan_principal: Math.max(0, b.loan_principal),
    overdue_principal: Math.max(0, b.overdue_principal),
    interest_receivable: Math.max(0, b.interest_receivable),
    overdue_interest: Math.max(0, b.overdue_interest),
    penalty_receivable: Math.max(0, b.penalty_receivable),
    fee_receivable: Math.max(0, b.fee_receivable),
  };
}

/**
 * WriteOffLoan (docs/lending/loans.md): active -> written_off, once per Idempotency-Key, through the
 * money pipeline. What accrued and fell overdue until today is posted first (the catch-up) and written
 * off with the rest: what the borrower owes (principal, accrued interest, penalties, fees) moves to
 * credit losses; money the lender owes the borrower (interest paid ahead, overpayments) stays.
 */
@Injectable()
export class WriteOffService {
  constructor(
    private readonly pipeline: MoneyPipeline,
    private readonly views: LoanViews,
  ) {}

  writeOff(
    organizationId: OrganizationId,
    keyId: string,
    request: IdempotentRequest,
    dto: WriteOffLoanRequest,
    lang: Language,
  ): Promise<WriteOffResponse> {
    return this.pipeline.run(organizationId, keyId, request, lang, this.operation(dto));
  }

  private operation(dto: WriteOffLoanRequest): MoneyOperation<null, WriteOffPlan, WriteOffResponse> {
    return {
      loanId: dto.loanId,
      admission: { kind: 'move', to: 'written_off', action: 'WriteOffLoan' },
      catchUpTo: (ctx) => ctx.today,
      gather: () => Promise.resolve(null),
      plan: (ctx, before) => {
        const owed = owedOf(before.balances);
        const amount = Object.values(owed).reduce((s, v) => s + v, 0);
        const p = new Posting().debit('credit_losses', amount);
        for (const [account, v] of Object.entries(owed)) p.credit(account as keyof typeof owed, v);
        return {
          amount,
          posting:
            amount > 0
              ? {
                  kind: 'write_off',
                  amount,
                  valueDate: ctx.today,
                  details: { reason: dto.reason ?? null, ...owed },
                  lines: p.lines(),
                }
              : null,
          move: { to: 'written_off', action: 'WriteOffLoan' },
        };
      },
      events: ({ ctx, transaction, before, after }) => ({
        kind: 'written_off',
        loan: ctx.loan,
        transaction,
        reason: dto.reason ?? null,
        reasonCode: (dto.reasonCode ?? 'uncollectable') as WriteOffReason,
        rowsBefore: before.rows,
        rows: after.rows,
        balances: after.balances,
      }),
      answer: ({ ctx, transaction, plan, after }) => ({
        transactionId: transaction?.id ?? null,
        amount: plan.amount,
        loan: this.views.loan(
          ctx.loan,
          { rows: after.rows, principalOutstanding: principalOwed(after.balances) },
          ctx.lang,
        ),
      }),
    };
  }
}
