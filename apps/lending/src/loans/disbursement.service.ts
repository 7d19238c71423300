import { Injectable } from '@nestjs/common';
import type { Language } from '@platform/i18n';
import type { OrganizationId } from '@platform/tenancy';
import type { IdempotentRequest } from '../idempotency/idempotent-request';
import { IdempotentOperations } from '../idempotency/idempotent-operations';
import type { DisburseLoanRequest } from './dto/loan.request';
import type { DisbursementResponse } from './dto/ledger.response';
import { LoanEvents } from './events/loan-events';
import { LedgerRepository } from './ledger/ledger.repository';
import { LoanBook } from './ledger/loan-book';
import { Posting } from './ledger/posting';
import { todayUtc } from './loan-dates';
import { LoanMoves } from './loan-moves';
import { LoanViews } from './loan-views';
import { LoanError, loanError } from './loans.errors';
import { generateSchedule } from './math';
import { withTerms } from './math-errors';
import { InstalmentsRepository } from './schedule/instalments.repository';
import { ScheduleVersionsRepository } from './schedule/schedule-versions.repository';

/**
 * DisburseLoan (docs/lending/loans.md): created -> active, once per Idempotency-Key. In one
 * transaction: the schedule generated from the loan's terms and stored, the disbursement posted
 * (principal out of cash; the origination fee charged), the status moved and the events written.
 */
@Injectable()
export class DisbursementService {
  constructor(
    private readonly idempotency: IdempotentOperations,
    private readonly moves: LoanMoves,
    private readonly ledger: LedgerRepository,
    private readonly instalments: InstalmentsRepository,
    private readonly book: LoanBook,
    private readonly views: LoanViews,
    private readonly events: LoanEvents,
    private readonly versions: ScheduleVersionsRepository,
  ) {}

  disburse(
    organizationId: OrganizationId,
    keyId: string,
    op: IdempotentRequest,
    dto: DisburseLoanRequest,
    lang: Language,
  ): Promise<DisbursementResponse> {
    return this.idempotency.run(organizationId, op, async (tx) => {
      const loan = await this.moves.lockOrFail(organizationId, dto.loanId, tx);
      this.moves.check(loan, 'active', 'DisburseLoan', lang);
      const today = todayUtc();
      const on = dto.disbursedOn ?? today;
      if (on > today)
        throw loanError(
          LoanError.VALUE_DATE_OUT_OF_RANGE,
          { date: on, earliest: '1900-01-01', latest: today },
          { earliest: '1900-01-01', latest: today },
        );
      const schedule = withTerms(() =>
        generateSchedule({
          principal: loan.principal,
          annualRate: loan.annualRate,
          termCount: loan.termCount,
          frequency: loan.frequency,
          scheduleType: loan.scheduleType,
          dayCount: loan.dayCount,
          disbursementDate: on,
          firstDueDate: dto.firstDueDate,
          graceInterestOnly: loan.graceInterestOnly,
          gracePrincipal: loan.gracePrincipal,
          rounding: loan.rounding,
          fees:
            loan.originationFee > 0
              ? [{ name: 'origination', amount: loan.originationFee, dueWith: 'first' }]
              : [],
        }),
      );
      const lines = new Posting()
        .debit('loan_principal', loan.principal)
        .credit('cash', loan.principal)
        .debit('fee_receivable', loan.originationFee)
        .credit('fee_income', loan.originationFee)
        .lines();
      const transaction = await this.ledger.post(
        organizationId,
        {
          loanId: loan.id,
          kind: 'disbursement',
          amount: loan.principal,
          valueDate: on,
          idempotencyKey: op.key,
          details: {
            originationFee: loan.originationFee,
            firstDueDate: schedule[0].dueDate,
            maturityDate: schedule[schedule.length - 1].dueDate,
            instalments: schedule.length,
          },
          keyId,
        },
        lines,
        tx,
      );
      await this.instalments.add(organizationId, loan.id, schedule, transaction.id, tx);
      await this.versions.record(organizationId, loan.id, transaction.id, tx);
      await this.moves.move(organizationId, loan, 'active', 'DisburseLoan', lang, tx, { disbursedOn: on });
      const position = await this.book.position(organizationId, loan.id, tx);
      await this.events.record(tx, organizationId, {
        kind: 'disbursed',
        loan,
        transaction,
        rows: position.rows,
        balances: position.balances,
      });
      return {
        transactionId: transaction.id,
        loan: this.views.loan(
          loan,
          { rows: position.rows, principalOutstanding: position.balances.loan_principal },
          lang,
        ),
        schedule: position.rows.map((r) => this.views.instalment(r, lang)),
      };
    });
  }
}
