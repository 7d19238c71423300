import type { OverdueBalance } from '../ledger/ledger.repository';
import { daysBetween } from '../loan-dates';
import type { PositionRow } from '../payments/payment-plan';

/**
 * The accruals job's decisions for one loan and one day, pure (docs/lending/loans.md, "Accruals"). The
 * service feeds it the schedule in force with what was paid, and the ledger's figures; every amount it
 * posts comes from the loan math (dailyAccrual, accrualToPost, periodInterest).
 */

/** The next calendar day. */
export function nextDay(day: string): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
}

/** The previous calendar day. */
export function previousDay(day: string): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) - 86_400_000).toISOString().slice(0, 10);
}

/** The principal outstanding during an instalment's period by the schedule: what its interest runs on. */
export const openingBalance = (r: PositionRow): number => r.principal + r.balanceAfter;

/**
 * The schedule's last due date: the loan's maturity, the termination date 30E/360 ISDA counts apart
 * (the math counts it so for the schedule's own last period; the accruals must too, to add up to it).
 */
export const maturityOf = (rows: readonly PositionRow[]): string | undefined =>
  rows.reduce<string | undefined>(
    (last, r) => (last === undefined || r.dueDate > last ? r.dueDate : last),
    undefined,
  );

/** Whether an instalment pays anything (the pay-nothing periods of a grace or a holiday do not). */
export const isPaying = (r: PositionRow): boolean => r.principal + r.interest + r.fees > 0;

/**
 * The instalment whose period holds `day` (periodStart <= day < dueDate): the day's interest is its
 * share of that period's. None before the first period or after the last due date (interest stops at
 * maturity; what is still owed then is overdue and draws penalties).
 */
export function periodOf(rows: readonly PositionRow[], day: string): PositionRow | null {
  return rows.find((r) => r.periodStart <= day && day < r.dueDate) ?? null;
}

const unpaid = (r: PositionRow) => ({
  principal: Math.max(0, r.principal - r.paid.principal),
  interest: Math.max(0, r.interest - r.paid.interest),
  fees: Math.max(0, r.fees - r.paid.fees),
});

/** One instalment's move to overdue: what of it is past due and not yet on the overdue accounts. */
export interface OverdueMove {
  instalmentId: string;
  number: number;
  dueDate: string;
  principal: number;
  interest: number;
}

/**
 * At the start of `day`, every instalment due before it is past due: what it still owes of principal and
 * interest belongs on the overdue accounts. The moves are the differences with what is there already,
 * so a day missed, a payment or a reversal in between is made good by the next start; nothing is ever
 * moved twice.
 */
export function overdueMoves(
  rows: readonly PositionRow[],
  day: string,
  onOverdue: ReadonlyMap<string, OverdueBalance>,
): OverdueMove[] {
  const out: OverdueMove[] = [];
  for (const r of rows) {
    if (r.dueDate >= day) continue;
    const owed = unpaid(r);
    const there = onOverdue.get(r.id) ?? { principal: 0, interest: 0 };
    const move = {
      instalmentId: r.id,
      number: r.number,
      dueDate: r.dueDate,
      principal: Math.max(0, owed.principal - there.principal),
      interest: Math.max(0, owed.interest - there.interest),
    };
    if (move.principal > 0 || move.interest > 0) out.push(move);
  }
  return out;
}

/** What is past due on `day` (principal, interest and fees of instalments due before it). */
export function pastDue(rows: readonly PositionRow[], day: string): number {
  return rows
    .filter((r) => r.dueDate < day)
    .reduce((s, r) => {
      const u = unpaid(r);
      return s + u.principal + u.interest + u.fees;
    }, 0);
}

/**
 * The debt a day's penalty runs on: unpaid principal and interest of the instalments due before `day`
 * for more than `graceDays` days (an instalment due on D is 1 day past due on D + 1). Fees and
 * penalties draw no penalty.
 */
export function penaltyBase(rows: readonly PositionRow[], day: string, graceDays: number): number {
  return rows
    .filter((r) => r.dueDate < day && daysBetween(r.dueDate, day) > graceDays)
    .reduce((s, r) => {
      const u = unpaid(r);
      return s + u.principal + u.interest;
    }, 0);
}

/**
 * The lines a positive interest amount is booked with: first out of interest received in advance (it
 * is now earned), the rest as interest receivable. A negative amount (income taken back) does the
 * reverse: receivable first, then back onto the advance.
 */
export function interestSides(
  amount: number,
  balances: { interest_receivable: number; interest_advance: number },
): { advance: number; receivable: number } {
  if (amount >= 0) {
    const advance = Math.min(amount, Math.max(0, balances.interest_advance));
    return { advance, receivable: amount - advance };
  }
  const receivable = Math.min(-amount, Math.max(0, balances.interest_receivable));
  return { advance: -amount - receivable, receivable };
}
