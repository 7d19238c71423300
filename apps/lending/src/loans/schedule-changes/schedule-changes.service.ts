import { Injectable } from '@nestjs/common';
import type { Language } from '@platform/i18n';
import type { OrganizationId } from '@platform/tenancy';
import type { IdempotentRequest } from '@platform/idempotency';
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
import type { OverdueBalance } from '../ledger/ledger.repository';
import { Posting, type PostingLine } from '../ledger/posting';
import { normaliseRate, rateWithinLimit } from '../loan-terms';
import { LoanTexts } from '../loan-texts';
import { LoanViews } from '../loan-views';
import type { Loan } from '../loan.entity';
import { LoanError, loanError } from '../loans.errors';
import { addPeriodsTo, reschedule, type Instalment, type ScheduleChange, type ScheduleType } from '../math';
import { withTerms } from '../math-errors';
import {
  postedOf,
  type Booked,
  type MoneyOperation,
  type MoneyPlan,
  type OperationContext,
} from '../operations/money-operation';
import { MoneyPipeline } from '../operations/money-pipeline';
import { creditInterest } from '../payments/payment-plan';
import { LoanProductsRepository } from '../products/loan-products.repository';
import type { GrantPaymentHolidayRequest, RestructureLoanRequest } from './dto/schedule-change.request';
import type { ScheduleChangeResponse } from './dto/schedule-change.response';
import { changeBase, type ChangeBase } from './schedule-change-plan';

/** Why a schedule change cannot apply (`value.problem`; texts: loans.scheduleChangeProblems). */
export type ScheduleChangeProblem =
  'NOTHING_TO_CHANGE' | 'NOTHING_LEFT' | 'TERM_REQUIRED' | 'RATE_TOO_HIGH' | 'HOLIDAY_TOO_LONG';

/** What a change decides from the position, before the shared part (reschedule, posting) runs. */
interface Planned {
  kind: TransactionKind;
  change: ScheduleChange;
  details: Record<string, unknown>;
  /** New terms of the contract (a restructuring's rate and schedule type). */
  terms: { annualRate: string; scheduleType: ScheduleType };
}

interface ChangePlan extends MoneyPlan {
  base: ChangeBase;
  rows: Instalment[];
  previousRate: string;
  reclassified: { principal: number; interest: number };
}

/** What the change answers and announces, from the booked plan. */
type Announce = (booked: Booked<ChangePlan>, fact: ScheduleChangeFact) => LoanEvent[];

/**
 * Schedule changes (docs/lending/loans.md, "Schedule changes"): RestructureLoan and GrantPaymentHoliday,
 * once per Idempotency-Key each, through the money pipeline. Under the loan's lock: the loan's accruals
 * brought up to today, the instalments due after today (and, for a restructuring, what is past due)
 * superseded by the loan math's reschedule from today, the change posted as a ledger transaction (a
 * restructuring moves folded past-due amounts back from the overdue accounts; otherwise it has no
 * lines), a new schedule version recorded, the contract's terms updated, and the bureau and
 * accounting events written.
 */
@Injectable()
export class ScheduleChangesService {
  constructor(
    private readonly pipeline: MoneyPipeline,
    private readonly views: LoanViews,
    private readonly texts: LoanTexts,
    private readonly products: LoanProductsRepository,
  ) {}

  restructure(
    organizationId: OrganizationId,
    keyId: string,
    request: IdempotentRequest,
    dto: RestructureLoanRequest,
    lang: Language,
  ): Promise<ScheduleChangeResponse> {
    const basis = (dto.basis ?? null) as RestructuringBasis | null;
    const op = this.operation(
      dto.loanId,
      dto.includeOverdue ?? true,
      async (ctx) => {
        if (dto.annualRate !== undefined && !rateWithinLimit(dto.annualRate))
          throw this.invalid('RATE_TOO_HIGH', ctx.lang, 'annualRate');
        // The new schedule is a term like a new contract's: within the product's limits.
        if (dto.termCount !== undefined) {
          const limits = await this.termLimits(ctx);
          if (dto.termCount < limits.min || dto.termCount > limits.max)
            throw loanError(LoanError.TERM_OUT_OF_RANGE, limits, limits);
        }
      },
      (ctx, base) => {
        const { loan, lang } = ctx;
        const annualRate = dto.annualRate === undefined ? loan.annualRate : normaliseRate(dto.annualRate);
        const scheduleType = (dto.scheduleType ?? loan.scheduleType) as ScheduleType;
        const changesTerms =
          annualRate !== loan.annualRate || scheduleType !== loan.scheduleType || dto.termCount !== undefined;
        if (!changesTerms && !base.folded.length) throw this.invalid('NOTHING_TO_CHANGE', lang);
        if (!base.future.length && dto.termCount === undefined)
          throw this.invalid('TERM_REQUIRED', lang, 'termCount');
        return {
          kind: 'restructuring',
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
      ({ ctx }, fact) => restructuredEvents(fact, basis, ctx.today),
    );
    return this.pipeline.run(organizationId, keyId, request, lang, op);
  }

  grantHoliday(
    organizationId: OrganizationId,
    keyId: string,
    request: IdempotentRequest,
    dto: GrantPaymentHolidayRequest,
    lang: Language,
  ): Promise<ScheduleChangeResponse> {
    const basis = (dto.basis ?? 'lender-programme') as HolidayBasis;
    const op = this.operation(
      dto.loanId,
      false,
      async (ctx) => {
        // No longer than the longest term the product lends for (and MAX_HOLIDAY_PERIODS, the request's bound).
        const { max } = await this.termLimits(ctx);
        if (dto.periods > max) throw this.invalid('HOLIDAY_TOO_LONG', ctx.lang, 'periods', { max });
      },
      (ctx) => ({
        kind: 'payment_holiday',
        change: { kind: 'holiday', periods: dto.periods },
        details: { periods: dto.periods, basis, reason: dto.reason ?? null },
        terms: { annualRate: ctx.loan.annualRate, scheduleType: ctx.loan.scheduleType },
      }),
      ({ ctx, plan }, fact) =>
        holidayGrantedEvents(
          fact,
          { basis, endDate: plan.rows[dto.periods - 1].dueDate, deferredInterest: plan.base.carriedInterest },
          ctx.today,
        ),
    );
    return this.pipeline.run(organizationId, keyId, request, lang, op);
  }

  /** The part both changes share: accruals first, the new schedule, the posting, the version. */
  private operation(
    loanId: string,
    includeOverdue: boolean,
    admit: (ctx: OperationContext) => Promise<void>,
    decide: (ctx: OperationContext, base: ChangeBase) => Planned,
    announce: Announce,
  ): MoneyOperation<Map<string, OverdueBalance>, ChangePlan, ScheduleChangeResponse> {
    return {
      loanId,
      admission: { kind: 'active' },
      admit,
      catchUpTo: (ctx) => ctx.today,
      gather: (_ctx, before) => Promise.resolve(before.onOverdue),
      plan: (ctx, before, onOverdue) => {
        const { loan, today, lang } = ctx;
        const base = changeBase(before.rows, today, interestHeld(before.balances), includeOverdue, onOverdue);
        if (base.principal <= 0) throw this.invalid('NOTHING_LEFT', lang);
        const p = decide(ctx, base);
        const rows = newSchedule(loan, today, base, p.change);
        const reclassified = {
          principal: base.folded.reduce((s, f) => s + Math.max(0, f.overdue.principal), 0),
          interest: base.folded.reduce((s, f) => s + Math.max(0, f.overdue.interest), 0),
        };
        const termsChange =
          p.terms.annualRate !== loan.annualRate || p.terms.scheduleType !== loan.scheduleType;
        return {
          base,
          rows,
          previousRate: loan.annualRate,
          reclassified,
          posting: {
            kind: p.kind,
            amount: base.principal,
            valueDate: today,
            details: {
              ...p.details,
              principal: base.principal,
              carriedInterest: base.carriedInterest,
              interestCredit: base.interestCredit,
              reclassifiedPrincipal: reclassified.principal,
              reclassifiedInterest: reclassified.interest,
              replaced: base.replaced.map((r) => r.number),
            },
            lines: this.reclassLines(base),
          },
          schedule: { kind: 'replace', superseded: base.replaced.map((r) => r.id), rows },
          terms: termsChange ? p.terms : null,
        };
      },
      events: (booked) => announce(booked, this.fact(booked)),
      answer: (booked) => this.answerOf(booked),
    };
  }

  private fact(booked: Booked<ChangePlan>): ScheduleChangeFact {
    const { ctx, plan, before, after } = booked;
    return {
      loan: ctx.loan,
      transaction: postedOf(booked),
      rows: after.rows,
      balances: after.balances,
      previousRate: plan.previousRate,
      previousMaturityDate: before.rows.at(-1)?.dueDate ?? ctx.today,
      reclassifiedPrincipal: plan.reclassified.principal,
      reclassifiedInterest: plan.reclassified.interest,
    };
  }

  private answerOf(booked: Booked<ChangePlan>): ScheduleChangeResponse {
    const { ctx, plan, before, after } = booked;
    return {
      transactionId: postedOf(booked).id,
      version: booked.version ?? 0,
      effectiveDate: ctx.today,
      previousMaturityDate: before.rows.at(-1)?.dueDate ?? ctx.today,
      maturityDate: after.rows.at(-1)?.dueDate ?? ctx.today,
      principal: plan.base.principal,
      carriedInterest: plan.base.carriedInterest,
      reclassifiedPrincipal: plan.reclassified.principal,
      reclassifiedInterest: plan.reclassified.interest,
      loan: this.views.loan(
        ctx.loan,
        { rows: after.rows, principalOutstanding: principalOwed(after.balances) },
        ctx.lang,
      ),
      schedule: after.rows.map((r) => this.views.instalment(r, ctx.lang)),
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

  /** The loan's product's term limits (instalments): what a new schedule may run for. */
  private async termLimits({ organizationId, loan, tx }: OperationContext) {
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

/** The loan math's reschedule from `today` of what the change base carries, with the interest credit. */
function newSchedule(loan: Loan, today: string, base: ChangeBase, change: ScheduleChange): Instalment[] {
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
  return creditInterest(
    withTerms(() =>
      reschedule(
        {
          principal: base.principal,
          fromDate: today,
          annualRate: loan.annualRate,
          frequency: loan.frequency,
          scheduleType: loan.scheduleType,
          dayCount: loan.dayCount,
          interestMethod: loan.interestMethod,
          rounding: loan.rounding,
          instalments: seed,
          accruedInterest: base.carriedInterest,
          fees: base.fees,
        },
        change,
      ),
    ),
    base.interestCredit,
  );
}
