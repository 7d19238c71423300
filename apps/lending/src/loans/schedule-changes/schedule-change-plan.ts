import type { OverdueBalance } from '../ledger/ledger.repository';
import type { ScheduleFee } from '../math';
import type { PositionRow } from '../payments/payment-plan';

/**
 * What a schedule change (RestructureLoan, GrantPaymentHoliday) starts from on `today`, pure
 * (docs/lending/loans.md, "Schedule changes"). The instalments due after today are replaced by the loan
 * math's reschedule; a restructuring may also fold in what is past due (`includeOverdue`). Nothing is
 * lost or counted twice:
 * - principal: what the replaced instalments still owe of it (paid principal stays with them);
 * - interest: every interest the ledger holds (`interestHeld`: accrued, carried or deferred, not paid,
 *   net of interest paid ahead) that the instalments kept in force do not bill is carried to the first
 *   paying new instalment (not capitalised): the current period's to today, the unpaid interest of
 *   folded instalments, and interest accrued before the current period that a replaced instalment bills
 *   (carried by an earlier restructuring, deferred by an earlier holiday). When interest paid ahead on
 *   the replaced instalments exceeds all that, the excess is credited to the first new ones;
 * - unpaid fees of the replaced instalments are due with the first new paying instalment.
 */
export interface ChangeBase {
  /** Every instalment the change supersedes. */
  replaced: PositionRow[];
  /** Of them, those due after today: their due dates seed the new schedule. */
  future: PositionRow[];
  /** Of them, those due on or before today folded in, and what they had on the overdue accounts. */
  folded: { row: PositionRow; overdue: OverdueBalance }[];
  principal: number;
  /** Interest carried to the first paying new instalment: held by the ledger, billed by no kept instalment. */
  carriedInterest: number;
  /** Interest paid ahead on the replaced instalments beyond what accrued: taken off the new ones. */
  interestCredit: number;
  fees: ScheduleFee[];
  /** The number the first new instalment takes (after every instalment kept in force). */
  firstNumber: number;
}

const unpaid = (r: PositionRow) => ({
  principal: Math.max(0, r.principal - r.paid.principal),
  interest: Math.max(0, r.interest - r.paid.interest),
  fees: Math.max(0, r.fees - r.paid.fees),
});
const owes = (r: PositionRow) => {
  const u = unpaid(r);
  return u.principal + u.interest + u.fees > 0;
};

/**
 * @param interestHeld the ledger's interest_receivable + overdue_interest - interest_advance, its accruals
 *   brought up to today (every day before it accrued, its start done).
 */
export function changeBase(
  rows: readonly PositionRow[],
  today: string,
  interestHeld: number,
  includeOverdue: boolean,
  onOverdue: ReadonlyMap<string, OverdueBalance>,
): ChangeBase {
  const future = rows.filter((r) => r.dueDate > today);
  const foldedRows = includeOverdue ? rows.filter((r) => r.dueDate <= today && owes(r)) : [];
  const replaced = [...foldedRows, ...future].sort((a, b) => a.number - b.number);
  const kept = rows.filter((r) => !replaced.includes(r));
  // The kept instalments are all due by today: what they bill has accrued, and stays theirs.
  const carried = interestHeld - kept.reduce((s, r) => s + r.interest - r.paid.interest, 0);
  const fees = replaced.reduce((s, r) => s + unpaid(r).fees, 0);
  return {
    replaced,
    future,
    folded: foldedRows.map((row) => ({
      row,
      overdue: onOverdue.get(row.id) ?? { principal: 0, interest: 0 },
    })),
    principal: replaced.reduce((s, r) => s + unpaid(r).principal, 0),
    carriedInterest: Math.max(0, carried),
    interestCredit: Math.max(0, -carried),
    fees: fees > 0 ? [{ name: 'carried', amount: fees, dueWith: 'first' }] : [],
    firstNumber: kept.reduce((n, r) => Math.max(n, r.number), 0) + 1,
  };
}
