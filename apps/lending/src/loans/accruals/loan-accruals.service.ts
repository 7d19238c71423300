import { Injectable, Logger } from '@nestjs/common';
import type { Tx } from '@platform/persistence';
import type { OrganizationId } from '@platform/tenancy';
import {
  interestAccruedEvents,
  interestAdjustedEvents,
  movedOverdueEvents,
  overdueStartedEvents,
} from '../events/accrual-events';
import type { LoanEvent } from '../events/event-payloads';
import { LoanEvents } from '../events/loan-events';
import { balancesOf, type AccountBalances } from '../ledger/balances';
import type { LedgerAccount, TransactionKind } from '../ledger/chart-of-accounts';
import type { LedgerTransaction } from '../ledger/ledger-transaction.entity';
import { LedgerRepository, type AccountTotals, type OverdueBalance } from '../ledger/ledger.repository';
import { LoanBook, type LoanPosition } from '../ledger/loan-book';
import { MAX_ACCRUAL_TURNOVER, checkTurnover, debitsOf, turnoverOf } from '../ledger/money-range';
import { Posting, type PostingLine } from '../ledger/posting';
import { todayUtc } from '../loan-dates';
import { overdueOf } from '../loan-views';
import type { Loan } from '../loan.entity';
import { accrualToPost, dailyAccrual, periodInterest } from '../math';
import { withLines } from '../payments/payment-booking';
import type { PositionRow } from '../payments/payment-plan';
import {
  interestSides,
  isPaying,
  maturityOf,
  nextDay,
  openingBalance,
  overdueMoves,
  pastDue,
  penaltyBase,
  periodOf,
  previousDay,
} from './accrual-plan';
import type { AccrualKind } from './loan-accrual.entity';
import { penaltyAccruedEvents } from '../events/accrual-events';
import { LoanAccrualStatesRepository, type AccrualStateValues } from './loan-accrual-states.repository';
import { LoanAccrualsRepository } from './loan-accruals.repository';

/** What a catch-up posted, in minor units (adjustments signed). */
export interface AccrualTotals {
  transactions: number;
  interest: number;
  penalties: number;
  principalOverdue: number;
  interestOverdue: number;
  adjustments: number;
  /**
   * Interest and penalty charges not posted because they would take the loan's ledger past the
   * accrual ceiling (MAX_ACCRUAL_TURNOVER); those days accrue nothing (logged).
   */
  capped: number;
}

export const noAccruals = (): AccrualTotals => ({
  transactions: 0,
  interest: 0,
  penalties: 0,
  principalOverdue: 0,
  interestOverdue: 0,
  adjustments: 0,
  capped: 0,
});

/** A loan being caught up: its schedule with what was paid, and the ledger as the catch-up leaves it. */
interface Book {
  organizationId: OrganizationId;
  loan: Loan;
  rows: PositionRow[];
  totals: Record<LedgerAccount, AccountTotals>;
  balances: AccountBalances;
  onOverdue: Map<string, OverdueBalance>;
  state: AccrualStateValues;
  out: AccrualTotals;
  today: string;
  tx: Tx;
}

const isZeroRate = (rate: string) => /^0(\.0*)?$/.test(rate);

/**
 * The daily accruals of a loan (docs/lending/loans.md, "Accruals"), brought up to a date under the
 * loan's row lock, which the caller holds: the scheduled job (AccrualsJob), RunAccruals, and every
 * operation on the loan before it books (so a payment finds the interest and penalties of the days
 * before it, and what fell overdue, already posted; accrue first, then operate).
 *
 * Each day has two steps. Its **start**: what instalments due before it still owe moves to the overdue
 * accounts (state-based: the difference with what is there), a period that ended yesterday is trued up
 * to the interest the schedule bills for it, and a first day past due is reported to the bureau. Its
 * **end**: the day's interest on the schedule's balance of the period (dailyAccrual from the period's
 * start, posted as accrualToPost differences, so the posts add up to the period's rounded interest
 * with no drift) and its penalty on what is past due after `penaltyGraceDays`. Every posting is its own
 * ledger transaction with its events, recorded in loan_accruals under a unique (organization, loan,
 * day, kind); the state row says how far the loan has gone, so a run that finds a day done posts
 * nothing.
 */
@Injectable()
export class LoanAccruals {
  private readonly logger = new Logger('LoanAccruals');

  constructor(
    private readonly ledger: LedgerRepository,
    private readonly book: LoanBook,
    private readonly accruals: LoanAccrualsRepository,
    private readonly states: LoanAccrualStatesRepository,
    private readonly events: LoanEvents,
  ) {}

  /**
   * Accrues every day before `asOf` and runs the start of `asOf` itself (what fell due before it is
   * overdue on it). Never a day after today (the UTC day): days that have not happened are not accrued,
   * whatever `asOf` says. A date already reached changes nothing. Only active, disbursed loans accrue.
   */
  async catchUp(
    organizationId: OrganizationId,
    loan: Loan,
    asOf: string,
    tx: Tx,
    read?: LoanPosition,
  ): Promise<AccrualTotals> {
    const out = noAccruals();
    if (loan.status !== 'active' || !loan.disbursedOn) return out;
    const today = todayUtc();
    const until = asOf > today ? today : asOf;
    // A caller that has just read the position (under the lock) passes it: its accrual state too.
    const saved = read ? read.accrualState : await this.states.of(organizationId, loan.id, tx);
    const before = previousDay(loan.disbursedOn);
    const state: AccrualStateValues = saved
      ? {
          startedThrough: saved.startedThrough,
          accruedThrough: saved.accruedThrough,
          interestInstalmentId: saved.interestInstalmentId,
          interestCumulative: saved.interestCumulative,
          penaltyCumulative: saved.penaltyCumulative,
          penaltyRunStart: saved.penaltyRunStart,
          penaltyRunBase: saved.penaltyRunBase,
          overdueSince: saved.overdueSince,
        }
      : {
          startedThrough: before,
          accruedThrough: before,
          interestInstalmentId: null,
          interestCumulative: '0',
          penaltyCumulative: '0',
          penaltyRunStart: null,
          penaltyRunBase: 0,
          overdueSince: null,
        };
    const lastDay = previousDay(until);
    if (state.startedThrough >= until && state.accruedThrough >= lastDay) return out;

    const position = read ?? (await this.book.position(organizationId, loan.id, tx));
    const b: Book = {
      organizationId,
      loan,
      rows: position.rows,
      totals: position.totals,
      balances: position.balances,
      onOverdue: position.onOverdue,
      state,
      out,
      today,
      tx,
    };
    while (state.accruedThrough < lastDay) {
      const day = nextDay(state.accruedThrough);
      if (state.startedThrough < day) {
        await this.start(b, day);
        state.startedThrough = day;
      }
      await this.end(b, day);
      state.accruedThrough = day;
    }
    if (state.startedThrough < until) {
      await this.start(b, until);
      state.startedThrough = until;
    }
    await this.states.save(organizationId, loan.id, state, tx);
    return out;
  }

  /** The last day whose interest the loan has accrued (its end done), or null before the first. */
  async accruedThrough(organizationId: OrganizationId, loan: Loan, tx: Tx): Promise<string | null> {
    const state = await this.states.of(organizationId, loan.id, tx);
    return state && loan.disbursedOn && state.accruedThrough >= loan.disbursedOn
      ? state.accruedThrough
      : null;
  }

  /** The start of `day`: overdue moves, the true-up of a period ending today, an overdue reported. */
  private async start(b: Book, day: string): Promise<void> {
    await this.moveOverdue(b, day);
    await this.trueUp(b, day);
    const overdue = overdueOf(b.rows, day);
    if (overdue.since && !b.state.overdueSince)
      await this.emit(
        b,
        overdueStartedEvents(b.loan, {
          day,
          since: overdue.since,
          amount: pastDue(b.rows, day),
          rows: b.rows,
          balances: b.balances,
        }),
      );
    b.state.overdueSince = overdue.since ? (b.state.overdueSince ?? overdue.since) : null;
  }

  private async moveOverdue(b: Book, day: string): Promise<void> {
    const moves = overdueMoves(b.rows, day, b.onOverdue);
    if (!moves.length) return;
    const p = new Posting();
    for (const m of moves) {
      const tag = { instalmentId: m.instalmentId };
      p.debit('overdue_principal', m.principal, tag).credit('loan_principal', m.principal, tag);
      p.debit('overdue_interest', m.interest, tag).credit('interest_receivable', m.interest, tag);
      const there = b.onOverdue.get(m.instalmentId) ?? { principal: 0, interest: 0 };
      b.onOverdue.set(m.instalmentId, {
        principal: there.principal + m.principal,
        interest: there.interest + m.interest,
      });
      b.out.principalOverdue += m.principal;
      b.out.interestOverdue += m.interest;
    }
    const amount = moves.reduce((s, m) => s + m.principal + m.interest, 0);
    const t = await this.post(b, 'overdue_transfer', day, amount, p.lines(), {
      date: day,
      instalments: moves,
    });
    await this.record(b, t, 'overdue', day, amount, {});
    await this.emit(b, movedOverdueEvents(b.loan, t, moves, b.today));
  }

  /**
   * At an instalment's due date its period is fully accrued by day count; the schedule bills the
   * period's own interest by its own rule (a 'periodic' annuity's regular period is balance x rate /
   * periods a year, whatever the days; under 'day-count' it is the days, so nothing is posted). The
   * difference is posted now, so what was accrued for each period is what its instalment bills, and
   * nothing is left on the interest accounts once it is paid.
   */
  private async trueUp(b: Book, day: string): Promise<void> {
    const r = b.rows.find((x) => x.dueDate === day);
    if (!r) return;
    const { loan, state } = b;
    const billed = periodInterest(openingBalance(r), loan.annualRate, r.periodStart, r.dueDate, {
      scheduleType: loan.scheduleType,
      dayCount: loan.dayCount,
      frequency: loan.frequency,
      rounding: loan.rounding,
      interestMethod: loan.interestMethod,
      terminationDate: maturityOf(b.rows),
    }).rounded;
    const accrued =
      state.interestInstalmentId === r.id
        ? accrualToPost('0', state.interestCumulative, loan.rounding).post
        : 0;
    const amount = billed - accrued;
    if (amount === 0) return;
    const sides = interestSides(amount, b.balances);
    const p = new Posting();
    if (amount > 0)
      p.debit('interest_advance', sides.advance)
        .debit('interest_receivable', sides.receivable)
        .credit('interest_income', amount);
    else
      p.debit('interest_income', -amount)
        .credit('interest_receivable', sides.receivable)
        .credit('interest_advance', sides.advance);
    if (amount > 0 && !this.charges(b, p.lines(), day)) return;
    const t = await this.post(b, 'interest_accrual', day, Math.abs(amount), p.lines(), {
      adjustment: 'period-end',
      instalmentNumber: r.number,
      periodFrom: r.periodStart,
      periodTo: previousDay(r.dueDate),
      billed,
      accrued,
    });
    await this.record(b, t, 'interest_adjustment', day, amount, { base: openingBalance(r) });
    b.out.adjustments += amount;
    await this.emit(
      b,
      interestAdjustedEvents(loan, t, { from: r.periodStart, to: previousDay(day), amount, sides }, b.today),
    );
  }

  /** The end of `day`: its interest and its penalty. */
  private async end(b: Book, day: string): Promise<void> {
    await this.interest(b, day);
    await this.penalty(b, day);
  }

  private async interest(b: Book, day: string): Promise<void> {
    const { loan, state } = b;
    const r = periodOf(b.rows, day);
    if (!r || isZeroRate(loan.annualRate)) return;
    const base = openingBalance(r);
    if (base <= 0) return;
    const before = state.interestInstalmentId === r.id ? state.interestCumulative : '0';
    const today = dailyAccrual(base, loan.annualRate, day, loan.dayCount, {
      periodStart: r.periodStart,
      rounding: loan.rounding,
      terminationDate: maturityOf(b.rows),
    });
    const { exactCumulative, post } = accrualToPost(before, today.exact, loan.rounding);
    state.interestInstalmentId = r.id;
    state.interestCumulative = exactCumulative;
    if (post === 0) return;
    const sides = interestSides(post, b.balances);
    const lines = new Posting()
      .debit('interest_advance', sides.advance)
      .debit('interest_receivable', sides.receivable)
      .credit('interest_income', post)
      .lines();
    if (!this.charges(b, lines, day)) return;
    const t = await this.post(b, 'interest_accrual', day, post, lines, {
      date: day,
      instalmentNumber: r.number,
      base,
      exact: today.exact,
      cumulative: exactCumulative,
      paying: isPaying(r),
    });
    await this.record(b, t, 'interest', day, post, { base, exact: today.exact, cumulative: exactCumulative });
    b.out.interest += post;
    await this.emit(b, interestAccruedEvents(loan, t, { day, amount: post, base, sides }, b.today));
  }

  private async penalty(b: Book, day: string): Promise<void> {
    const { loan, state } = b;
    if (isZeroRate(loan.penaltyAnnualRate)) return;
    const base = penaltyBase(b.rows, day, loan.penaltyGraceDays);
    if (base <= 0) {
      state.penaltyRunStart = null;
      state.penaltyRunBase = 0;
      return;
    }
    // A run of days on the same base is counted from its first day, so 30/360 adds up exactly.
    const runStart = state.penaltyRunStart && state.penaltyRunBase === base ? state.penaltyRunStart : day;
    const today = dailyAccrual(base, loan.penaltyAnnualRate, day, loan.dayCount, {
      periodStart: runStart,
      rounding: loan.rounding,
    });
    const { exactCumulative, post } = accrualToPost(state.penaltyCumulative, today.exact, loan.rounding);
    state.penaltyCumulative = exactCumulative;
    state.penaltyRunStart = runStart;
    state.penaltyRunBase = base;
    if (post === 0) return;
    const lines = new Posting().debit('penalty_receivable', post).credit('penalty_income', post).lines();
    if (!this.charges(b, lines, day)) return;
    const daysPastDue = overdueOf(b.rows, day).days;
    const t = await this.post(b, 'penalty_accrual', day, post, lines, {
      date: day,
      base,
      exact: today.exact,
      cumulative: exactCumulative,
      daysPastDue,
    });
    await this.record(b, t, 'penalty', day, post, { base, exact: today.exact, cumulative: exactCumulative });
    b.out.penalties += post;
    await this.emit(b, penaltyAccruedEvents(loan, t, { day, amount: post, base, daysPastDue }, b.today));
  }

  /**
   * Whether a charge (the day's interest or penalty, a period's true-up upwards) may be posted: not when
   * it would take the loan's ledger past MAX_ACCRUAL_TURNOVER. The job cannot refuse anybody, so it stops
   * charging the loan instead (docs/lending/loan-math.md, "Numbers"): the charge is dropped for good (the
   * exact cumulative amount has moved on), counted in `capped` and logged once per catch-up; the room
   * left under MAX_LOAN_TURNOVER still lets the loan be paid off or written off.
   */
  private charges(b: Book, lines: readonly PostingLine[], day: string): boolean {
    if (turnoverOf(b.totals) + debitsOf(lines) <= BigInt(MAX_ACCRUAL_TURNOVER)) return true;
    if (b.out.capped === 0)
      this.logger.warn(
        `${b.organizationId}/${b.loan.id}: accruals stopped on ${day}: the ledger would pass ${MAX_ACCRUAL_TURNOVER} minor units`,
      );
    b.out.capped += 1;
    return false;
  }

  private async post(
    b: Book,
    kind: TransactionKind,
    day: string,
    amount: number,
    lines: PostingLine[],
    details: Record<string, unknown>,
  ): Promise<LedgerTransaction> {
    // What is not a charge (an overdue move, a true-up downwards) still never passes the loan's ceiling.
    checkTurnover(turnoverOf(b.totals) + debitsOf(lines));
    const t = await this.ledger.post(
      b.organizationId,
      { loanId: b.loan.id, kind, amount, valueDate: day, idempotencyKey: null, details, keyId: null },
      lines,
      b.tx,
    );
    b.totals = withLines(b.totals, lines);
    b.balances = balancesOf(b.totals);
    b.out.transactions += 1;
    return t;
  }

  private record(
    b: Book,
    t: LedgerTransaction,
    kind: AccrualKind,
    day: string,
    amount: number,
    figures: { base?: number; exact?: string; cumulative?: string },
  ): Promise<void> {
    return this.accruals.add(
      b.organizationId,
      {
        loanId: b.loan.id,
        accrualDate: day,
        kind,
        transactionId: t.id,
        amount,
        base: figures.base ?? null,
        exact: figures.exact ?? null,
        cumulative: figures.cumulative ?? null,
      },
      b.tx,
    );
  }

  private async emit(b: Book, events: LoanEvent[]): Promise<void> {
    for (const e of events) await this.events.emit(b.tx, b.organizationId, e.type, e.body as never);
  }
}
