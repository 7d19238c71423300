import { Injectable } from '@nestjs/common';
import type { Language } from '@platform/i18n';
import type { OrganizationId } from '@platform/tenancy';
import type { IdempotentRequest } from '@platform/idempotency';
import type { DisburseLoanRequest } from './dto/loan.request';
import { DisbursementStanding } from './disbursement-standing';
import type { DisbursementResponse } from './dto/ledger.response';
import { Posting } from './ledger/posting';
import { LoanViews } from './loan-views';
import type { Loan } from './loan.entity';
import { LoanError, loanError } from './loans.errors';
import { contractSchedule } from './cost-of-credit';
import type { Instalment } from './math';
import { withTerms } from './math-errors';
import {
  postedOf,
  type MoneyOperation,
  type MoneyPlan,
  type OperationContext,
} from './operations/money-operation';
import { MoneyPipeline } from './operations/money-pipeline';

interface DisbursementPlan extends MoneyPlan {
  on: string;
  schedule: { kind: 'first'; rows: Instalment[] };
}

/** The first schedule of a loan disbursed on `on`, from the contract's terms (as its cost of credit projects it). */
export function firstSchedule(loan: Loan, on: string, firstDueDate?: string): Instalment[] {
  return withTerms(() => contractSchedule(loan, on, firstDueDate));
}

/**
 * DisburseLoan (docs/lending/loans.md): created -> active, once per Idempotency-Key, through the money
 * pipeline. Its plan: the schedule generated from the loan's terms, the disbursement posted (principal
 * out of cash; the origination fee charged), the move to active with the disbursement day.
 */
@Injectable()
export class DisbursementService {
  constructor(
    private readonly pipeline: MoneyPipeline,
    private readonly views: LoanViews,
    private readonly standing: DisbursementStanding,
  ) {}

  disburse(
    organizationId: OrganizationId,
    keyId: string,
    request: IdempotentRequest,
    dto: DisburseLoanRequest,
    lang: Language,
  ): Promise<DisbursementResponse> {
    return this.pipeline.run(organizationId, keyId, request, lang, this.operation(dto));
  }

  private operation(dto: DisburseLoanRequest): MoneyOperation<null, DisbursementPlan, DisbursementResponse> {
    return {
      loanId: dto.loanId,
      admission: { kind: 'move', to: 'active', action: 'DisburseLoan' },
      admit: (ctx) => this.standing.assertMayDisburse(ctx.organizationId, ctx.loan, ctx.lang, ctx.tx),
      catchUpTo: () => null,
      gather: () => Promise.resolve(null),
      plan: (ctx: OperationContext): DisbursementPlan => {
        const { loan, today } = ctx;
        const on = dto.disbursedOn ?? today;
        if (on > today)
          throw loanError(
            LoanError.VALUE_DATE_OUT_OF_RANGE,
            { date: on, earliest: '1900-01-01', latest: today },
            { earliest: '1900-01-01', latest: today },
          );
        const rows = firstSchedule(loan, on, dto.firstDueDate);
        return {
          on,
          posting: {
            kind: 'disbursement',
            amount: loan.principal,
            valueDate: on,
            details: {
              originationFee: loan.originationFee,
              firstDueDate: rows[0].dueDate,
              maturityDate: rows[rows.length - 1].dueDate,
              instalments: rows.length,
            },
            lines: new Posting()
              .debit('loan_principal', loan.principal)
              .credit('cash', loan.principal)
              .debit('fee_receivable', loan.originationFee)
              .credit('fee_income', loan.originationFee)
              .lines(),
          },
          schedule: { kind: 'first', rows },
          move: { to: 'active', action: 'DisburseLoan', also: { disbursedOn: on } },
        };
      },
      events: (booked) => ({
        kind: 'disbursed',
        loan: booked.ctx.loan,
        transaction: postedOf(booked),
        rows: booked.after.rows,
        balances: booked.after.balances,
      }),
      answer: (booked) => ({
        transactionId: postedOf(booked).id,
        loan: this.views.loan(
          booked.ctx.loan,
          { rows: booked.after.rows, principalOutstanding: booked.after.balances.loan_principal },
          booked.ctx.lang,
        ),
        schedule: booked.after.rows.map((r) => this.views.instalment(r, booked.ctx.lang)),
      }),
    };
  }
}
