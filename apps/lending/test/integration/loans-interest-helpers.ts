import { withClient } from '@platform/testing';
import {
  interestBetween,
  periodInterest,
  type DayCount,
  type Frequency,
  type Rounding,
  type ScheduleType,
} from '../../src/loans/math';
import type { LendingFixture } from './lending-fixture';
import { ok, type BalancesView, type InstalmentView } from './loans-helpers';

interface LoanTerms {
  status: string;
  annualRate: string;
  scheduleType: ScheduleType;
  dayCount: DayCount;
  frequency: Frequency;
  rounding: Rounding;
  disbursedOn: string | null;
}

/** Both sides of the interest identity of docs/lending/loans.md ("Interest the ledger holds"). */
export interface InterestSides {
  /** The first day not accrued yet (every day before it accrued, its start done). */
  day: string;
  /** Σ over the schedule in force of interest − paid interest. */
  billedUnpaid: number;
  /** What the schedule in force bills that has not accrued yet: the accruals will post it. */
  notYetAccrued: number;
  /** interest_receivable + overdue_interest − interest_advance. */
  ledger: number;
}

const nextDay = (d: string) => new Date(Date.parse(`${d}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);

/**
 * Reads both sides of the identity for a loan, its accruals first brought up to today (RunAccruals, which
 * posts each day once, so calling it changes nothing an operation would not have done):
 *
 *   Σ_{in force} (interest − paidInterest) − notYetAccrued
 *     = interest_receivable + overdue_interest − interest_advance
 *
 * notYetAccrued = Σ_{in force, due after D} periodInterest(row) − the current period's interest from its
 * start to D (D: the first day not accrued). An active loan only; a closed one has both sides 0.
 */
export async function interestSides(
  s: LendingFixture,
  headers: Record<string, string>,
  loanId: string,
): Promise<InterestSides> {
  const before = await ok<LoanTerms>(s.call(headers, 'GET', `/Loans/GetLoan?LoanId=${loanId}`));
  if (before.status === 'active') await ok(s.call(headers, 'POST', '/Loans/RunAccruals', { loanId }));
  const loan = await ok<LoanTerms>(s.call(headers, 'GET', `/Loans/GetLoan?LoanId=${loanId}`));
  const rows = (
    await ok<{ items: InstalmentView[] }>(s.call(headers, 'GET', `/Loans/GetLoanSchedule?LoanId=${loanId}`))
  ).items;
  const b = await ok<BalancesView>(s.call(headers, 'GET', `/Loans/GetLoanBalances?LoanId=${loanId}`));
  const state = await withClient(s.db.url, async (c) => {
    const r = await c.query<{ started: string; accrued: string }>(
      `SELECT started_through::text AS started, accrued_through::text AS accrued
         FROM lending.loan_accrual_states WHERE loan_id = $1`,
      [loanId],
    );
    return r.rows[0] ?? null;
  });
  const day = state ? nextDay(state.accrued) : (loan.disbursedOn ?? '');
  if (state && loan.status === 'active' && state.started !== day)
    throw new Error(`accruals started ${state.started}, accrued through ${state.accrued}`);
  const terms = {
    scheduleType: loan.scheduleType,
    dayCount: loan.dayCount,
    frequency: loan.frequency,
    rounding: loan.rounding,
  };
  let notYetAccrued = 0;
  if (loan.status === 'active')
    for (const r of rows.filter((x) => x.dueDate > day)) {
      const opening = r.principal + r.balanceAfter;
      notYetAccrued += periodInterest(opening, loan.annualRate, r.periodStart, r.dueDate, terms).rounded;
      if (r.periodStart < day)
        notYetAccrued -= interestBetween(
          opening,
          loan.annualRate,
          r.periodStart,
          day,
          loan.dayCount,
          loan.rounding,
        ).rounded;
    }
  return {
    day,
    billedUnpaid: rows.reduce((sum, r) => sum + r.interest - r.paidInterest, 0),
    notYetAccrued,
    ledger: b.interestReceivable + b.overdueInterest - b.interestAdvance,
  };
}

/**
 * Asserts the identity: interest the ledger holds (accrued, carried, deferred, net of interest paid ahead)
 * is exactly what the schedule in force bills and has not been paid, less what it bills that has not
 * accrued yet. Interest held but billed by no instalment, or billed twice, breaks it.
 */
export async function expectInterestAgrees(
  s: LendingFixture,
  headers: Record<string, string>,
  loanId: string,
): Promise<InterestSides> {
  const sides = await interestSides(s, headers, loanId);
  expect({ billedLessNotYetAccrued: sides.billedUnpaid - sides.notYetAccrued, day: sides.day }).toEqual({
    billedLessNotYetAccrued: sides.ledger,
    day: sides.day,
  });
  return sides;
}
