import { Injectable } from '@nestjs/common';
import type { Language } from '@platform/i18n';
import type { Tx } from '@platform/persistence';
import type { OrganizationId } from '@platform/tenancy';
import type { IdempotentRequest } from '../../idempotency/idempotent-request';
import { IdempotentOperations } from '../../idempotency/idempotent-operations';
import { LoanAccruals } from '../accruals/loan-accruals.service';
import { LoanEvents } from '../events/loan-events';
import type { LoanEvent } from '../events/event-payloads';
import {
  holidayGrantedEvents,
  restructuredEvents,
  type HolidayBasis,
  type RestructuringBasis,
  type ScheduleChangeFact,
} from '../events/schedule-change-events';
import { interestHeld, principalOwed } from '../ledger/balances';
import type { TransactionKind } from '../ledger/chart-of-accounts';
import { LedgerRepository } from '../ledger/ledger.repository';
import { LoanBook } from '../ledger/loan-book';
import { Posting, type PostingLine } from '../ledger/posting';
import { todayUtc } from '../loan-dates';
import { LoanMoves } from '../loan-moves';
import { normaliseRate, rateWithinLimit } from '../loan-terms';
import { LoanTexts } from '../loan-texts';
import { LoanViews } from '../loan-views';
import type { Loan } from '../loan.entity';
import { LoanError, loanError } from '../loans.errors';
import { LoanProductsRepository } from '../products/loan-products.repository';
import { LoansRepository } from '../loans.repository';
import { addPeriodsTo, reschedule, type Instalment, type ScheduleChange, type ScheduleType } from '../math';
import { withTerms } from '../math-errors';
import { creditInterest } from '../payments/payment-plan';
import { InstalmentsRepository } from '../schedule/instalments.repository';
import { ScheduleVersionsRepository } from '../schedule/schedule-versions.repository';
import type { GrantPaymentHolidayRequest, RestructureLoanRequest } from './dto/schedule-change.request';
import type { ScheduleChangeResponse } from './dto/schedule-change.response';
import { changeBase, type ChangeBase } from './schedule-change-plan';

/** Why a schedule change cannot apply (`value.problem`; texts: loans.scheduleChangeProblems). */
export type ScheduleChangeProblem =
  'NOTHING_TO_CHANGE' | 'NOTHING_LEFT' | 'TERM_REQUIRED' | 'RATE_TOO_HIGH' | 'HOLIDAY_TOO_LONG';

interface Planned {
  kind: TransactionKind;
  base: ChangeBase;
  change: ScheduleChange;
  details: Record<string, unknown>;
  /** New terms of the contract (a restructuring's rate and schedule type). */
  terms: { annualRate: string; scheduleType: ScheduleType };
}

/**
 * Schedule changes (docs/lending/loans.md, "Schedule changes"): RestructureLoan and GrantPaymentHoliday,
 * once per Idempotency-Key each. In one transaction under the loan's lock: the loan's accruals brought
 * up to today, the instalments due after today (and, for a restructuring, what is past due) superseded
 * by the loan math's reschedule from today, the change posted as a ledger transaction (a restructuring
 * moves folded past-due amounts back from the overdue accounts; otherwise it has no lines), a new
 * schedule version recorded, the contract's terms updated, and the bureau and accounting events written.
 */
@Injectable()
export class ScheduleChangesService {
  constructor(
    private readonly idempotency: IdempotentOperations,
    private readonly moves: LoanMoves,
    private readonly loans: LoansRepository,
    private readonly ledger: LedgerRepository,
    private readonly instalments: InstalmentsRepository,
    private readonly versions: ScheduleVersionsRepository,
    private readonly book: LoanBook,
    private readonly views: LoanViews,
    private readonly texts: LoanTexts,
    private readonly events: LoanEvents,
    private readonly accruals: LoanAccruals,
    private readonly products: LoanProductsRepository,
  ) {}

  restructure(
    organizationId: OrganizationId,
    keyId: string,
    op: IdempotentRequest,
    dto: RestructureLoanRequest,
    lang: Language,
  ): Promise<ScheduleChangeResponse> {
    return this.idempotency.run(organizationId, op, async (tx) => {
      const loan = await this.moves.lockOrFail(organizationId, dto.loanId, tx);
      this.moves.requireActive(loan, lang);
      if (dto.annualRate !== undefined && !rateWithinLimit(dto.annualRate))
        throw this.invalid('RATE_TOO_HIGH', lang, 'annualRate');
      // The new schedule is a term like a new contract's: within the product's limits.
      if (dto.termCount !== undefined) {
        const limits = await this.termLimits(organizationId, loan, tx);
        if (dto.termCount < limits.min || dto.termCount > limits.max)
          throw loanError(LoanError.TERM_OUT_OF_RANGE, limits, limits);
      }
      const annualRate = dto.annualRate === undefined ? loan.annualRate : normaliseRate(dto.annualRate);
      const scheduleType = (dto.scheduleType ?? loan.scheduleType) as ScheduleType;
      const basis = (dto.basis ?? null) as RestructuringBasis | null;
      const { fact, answer } = await this.apply(
        organizationId,
        keyId,
        op,
        loan,
        lang,
        tx,
        dto.includeOverdue ?? true,
        (base) => {
          const changesTerms =
            annualRate !== loan.annualRate ||
            scheduleType !== loan.scheduleType ||
            dto.termCount !== undefined;
          if (!changesTerms && !base.folded.length) throw this.invalid('NOTHING_TO_CHANGE', lang);
          if (!base.future.length && dto.termCount === undefined)
            throw this.invalid('TERM_REQUIRED', lang, 'termCount');
          return {
            kind: 'restructuring',
            base,
            change: {
              kind: 'restructure',
              annualRate,
              scheduleType,
              ...(dto.termCount !== undefined ? { termCount: dto.termCount } : {}),
            },
            details: {
              annualRate: { from: loan.annualRate, to: annualRate },
              scheduleType: { from: loan.scheduleType, to: scheduleType },
              termCount: dto.termCount ?? null,
              includeOverdue: dto.includeOverdue ?? true,
              basis,
              reason: dto.reason ?? null,
            },
            terms: { annualRate, scheduleType },
          };
        },
      );
      return this.announce(tx, organizationId, restructuredEvents(fact, basis, todayUtc()), answer);
    });
  }

  grantHoliday(
    organizationId: OrganizationId,
    keyId: string,
    op: IdempotentRequest,
    dto: GrantPaymentHolidayRequest,
    lang: Language,
  ): Promise<ScheduleChangeResponse> {
    return this.idempotency.run(organizationId, op, async (tx) => {
      const loan = await this.moves.lockOrFail(organizationId, dto.loanId, tx);
      this.moves.requireActive(loan, lang);
      // No longer than the longest term the product lends for (and MAX_HOLIDAY_PERIODS, the request's bound).
      const { max } = await this.termLimits(organizationId, loan, tx);
      if (dto.periods > max) throw this.invalid('HOLIDAY_TOO_LONG', lang, 'periods', { max });
      const basis = (dto.basis ?? 'lender-programme') as HolidayBasis;
      const { fact, answer, rows } = await this.apply(
        organizationId,
        keyId,
        op,
        loan,
        lang,
        tx,
        false,
        (base) => ({
          kind: 'payment_holiday',
          base,
          change: { kind: 'holiday', periods: dto.periods },
          details: { periods: dto.periods, basis, reason: dto.reason ?? null },
          terms: { annualRate: loan.annualRate, scheduleType: loan.scheduleType },
        }),
      );
      const endDate = rows[dto.periods - 1].dueDate;
      return this.announce(
        tx,
        organizationId,
        holidayGrantedEvents(fact, { basis, endDate, deferredInterest: answer.carriedInterest }, todayUtc()),
        answer,
      );
    });
  }

  /** The part both changes share: accruals first, the new schedule, the posting, the version. */
  private async apply(
    organizationId: OrganizationId,
    keyId: string,
    op: IdempotentRequest,
    loan: Loan,
    lang: Language,
    tx: Tx,
    includeOverdue: boolean,
    plan: (base: ChangeBase) => Planned,
  ): Promise<{ fact: ScheduleChangeFact; answer: ScheduleChangeResponse; rows: Instalment[] }> {
    const today = todayUtc();
    await this.accruals.catchUp(organizationId, loan, today, tx);
    const before = await this.book.position(organizationId, loan.id, tx);
    const onOverdue = await this.ledger.overdueByInstalment(organizationId, loan.id, tx);
    const base = changeBase(before.rows, today, interestHeld(before.balances), includeOverdue, onOverdue);
    if (base.principal <= 0) throw this.invalid('NOTHING_LEFT', lang);
    const p = plan(base);
    const seed = base.future.length
      ? base.future.map((r, i) => ({
          number: base.firstNumber + i,
          dueDate: r.dueDate,
          principal: r.principal,
          interest: r.interest,
        }))
      : [
          {
            number: base.firstNumber,
            dueDate: addPeriodsTo(today, 1, loan.frequency),
            principal: 0,
            interest: 0,
          },
        ];
    const rows = creditInterest(
      withTerms(() =>
        reschedule(
          {
            principal: base.principal,
            fromDate: today,
            annualRate: loan.annualRate,
            frequency: loan.frequency,
            scheduleType: loan.scheduleType,
            dayCount: loan.dayCount,
            rounding: loan.rounding,
            instalments: seed,
            accruedInterest: base.carriedInterest,
            fees: base.fees,
          },
          p.change,
        ),
      ),
      base.interestCredit,
    );
    const reclassified = {
      principal: base.folded.reduce((s, f) => s + Math.max(0, f.overdue.principal), 0),
      interest: base.folded.reduce((s, f) => s + Math.max(0, f.overdue.interest), 0),
    };
    const transaction = await this.ledger.post(
      organizationId,
      {
        loanId: loan.id,
        kind: p.kind,
        amount: base.principal,
        valueDate: today,
        idempotencyKey: op.key,
        details: {
          ...p.details,
          principal: base.principal,
          carriedInterest: base.carriedInterest,
          interestCredit: base.interestCredit,
          reclassifiedPrincipal: reclassified.principal,
          reclassifiedInterest: reclassified.interest,
          replaced: base.replaced.map((r) => r.number),
        },
        keyId,
      },
      this.reclassLines(base),
      tx,
    );
    await this.instalments.supersede(
      organizationId,
      loan.id,
      base.replaced.map((r) => r.id),
      transaction.id,
      tx,
    );
    await this.instalments.add(organizationId, loan.id, rows, transaction.id, tx);
    const version = await this.versions.record(organizationId, loan.id, transaction.id, tx);
    const previousRate = loan.annualRate;
    if (p.terms.annualRate !== loan.annualRate || p.terms.scheduleType !== loan.scheduleType) {
      await this.loans.change(organizationId, loan.id, p.terms, tx);
      Object.assign(loan, p.terms);
    }
    const after = await this.book.position(organizationId, loan.id, tx);
    const previousMaturityDate = before.rows.at(-1)?.dueDate ?? today;
    const maturityDate = after.rows.at(-1)?.dueDate ?? today;
    return {
      rows,
      fact: {
        loan,
        transaction,
        rows: after.rows,
        balances: after.balances,
        previousRate,
        previousMaturityDate,
        reclassifiedPrincipal: reclassified.principal,
        reclassifiedInterest: reclassified.interest,
      },
      answer: {
        transactionId: transaction.id,
        version,
        effectiveDate: today,
        previousMaturityDate,
        maturityDate,
        principal: base.principal,
        carriedInterest: base.carriedInterest,
        reclassifiedPrincipal: reclassified.principal,
        reclassifiedInterest: reclassified.interest,
        loan: this.views.loan(
          loan,
          { rows: after.rows, principalOutstanding: principalOwed(after.balances) },
          lang,
        ),
        schedule: after.rows.map((r) => this.views.instalment(r, lang)),
      },
    };
  }

  /** Past-due amounts a restructuring folds in go back from the overdue accounts (none: no lines). */
  private reclassLines(base: ChangeBase): PostingLine[] {
    const p = new Posting();
    let any = false;
    for (const { row, overdue } of base.folded) {
      const tag = { instalmentId: row.id };
      const principal = Math.max(0, overdue.principal);
      const interest = Math.max(0, overdue.interest);
      p.debit('loan_principal', principal, tag).credit('overdue_principal', principal, tag);
      p.debit('interest_receivable', interest, tag).credit('overdue_interest', interest, tag);
      any ||= principal + interest > 0;
    }
    return any ? p.lines() : [];
  }

  private async announce(
    tx: Tx,
    organizationId: OrganizationId,
    events: LoanEvent[],
    answer: ScheduleChangeResponse,
  ): Promise<ScheduleChangeResponse> {
    for (const e of events) await this.events.emit(tx, organizationId, e.type, e.body as never);
    return answer;
  }

  /** The loan's product's term limits (instalments): what a new schedule may run for. */
  private async termLimits(organizationId: OrganizationId, loan: Loan, tx: Tx) {
    const product = await this.products.byId(organizationId, loan.productId, tx);
    // The product is the loan's (a foreign key): it cannot be missing.
    if (!product) throw new Error(`loan ${loan.id} has no product ${loan.productId}`);
    return { min: product.minTerm, max: product.maxTerm };
  }

  private invalid(
    problem: ScheduleChangeProblem,
    lang: Language,
    field?: string,
    args: Record<string, number> = {},
  ) {
    return loanError(
      LoanError.SCHEDULE_CHANGE_INVALID,
      { problem: this.texts.format('scheduleChangeProblems', problem, args, lang) },
      { problem, ...(field ? { field } : {}), ...args },
    );
  }
}
