import { DEBT_COMPONENTS, type DebtComponent } from '../math';

/** How a payment is applied (docs/lending/loans.md, "Payments"). */
export const PAYMENT_MODES = ['regular', 'reduceTerm', 'reduceInstalment'] as const;
export type PaymentMode = (typeof PAYMENT_MODES)[number];

/** An instalment in force with what has been paid on it. */
export interface PositionRow {
  id: string;
  number: number;
  periodStart: string;
  dueDate: string;
  principal: number;
  interest: number;
  fees: number;
  balanceAfter: number;
  paid: { principal: number; interest: number; fees: number };
}

/** Where money for one component goes: an instalment (or none, for a prepayment or penalties). */
export interface Bucket {
  instalmentId: string | null;
  amount: number;
}

export interface DebtPlan {
  debts: Record<DebtComponent, number>;
  /** The order the allocation runs in: the product's, with currentPrincipal last for an early repayment. */
  order: DebtComponent[];
  buckets: Record<DebtComponent, Bucket[]>;
  /** The instalment the value date falls in (the first due on or after it), if any. */
  current: PositionRow | null;
  /**
   * Early repayment: interest paid ahead beyond all interest accrued until the value date (an instalment
   * paid before its due date), credited to the new schedule.
   */
  interestCredit: number;
}

export interface PlanInput {
  rows: PositionRow[];
  valueDate: string;
  mode: PaymentMode;
  order: readonly DebtComponent[];
  /** Ledger balances before the payment. */
  principalOutstanding: number;
  penaltyReceivable: number;
  /**
   * Interest the ledger holds, accrued through the day before the value date and not paid, net of interest
   * paid ahead: interest_receivable + overdue_interest - interest_advance. It includes interest accrued
   * before the current period that a later instalment bills (carried by a schedule change, deferred by a
   * holiday), so an early repayment owes all of it.
   */
  interestHeld: number;
}

const remaining = (r: PositionRow) => ({
  principal: Math.max(0, r.principal - r.paid.principal),
  interest: Math.max(0, r.interest - r.paid.interest),
  fees: Math.max(0, r.fees - r.paid.fees),
});

const sum = (b: Bucket[]) => b.reduce((s, x) => s + x.amount, 0);
const positive = (b: Bucket[]) => b.filter((x) => x.amount > 0);

/**
 * The debts a payment on `valueDate` settles, and where each component's money goes, from the schedule
 * in force and what has been paid (pure: the service feeds it the ledger's figures).
 *
 * - overdue: instalments due before the value date, what remains of their interest and principal;
 * - current: the first instalment due on or after the value date. A regular payment settles what
 *   remains of it (an instalment paid ahead is paid in full). An early repayment (reduceTerm,
 *   reduceInstalment) owes all the interest accrued until the value date and not paid that is not
 *   overdue (`interestHeld` less the overdue interest): the current period's to the value date (all of
 *   it when the instalment is due that day), and interest accrued earlier that a later instalment bills
 *   (carried by a restructuring, deferred by a holiday); it is credited to the instalments that bill it,
 *   first ones first. Its current principal is all the principal not overdue: what the payment leaves
 *   after every other debt is the prepayment, so for an early repayment currentPrincipal is always
 *   settled last, whatever the product's order says;
 * - fees: what remains of the fees of the instalments due so far (regular), or of all of them (early);
 * - penalties: the accrued penalty receivable.
 */
export function planDebts(input: PlanInput): DebtPlan {
  const { rows, valueDate: d, mode } = input;
  const early = mode !== 'regular';
  const overdue = rows.filter((r) => r.dueDate < d);
  const current = rows.find((r) => r.dueDate >= d) ?? null;
  const buckets = Object.fromEntries(DEBT_COMPONENTS.map((c) => [c, [] as Bucket[]])) as Record<
    DebtComponent,
    Bucket[]
  >;

  const feeRows = early ? rows : rows.filter((r) => r.dueDate < d || r === current);
  buckets.fees = positive(feeRows.map((r) => ({ instalmentId: r.id, amount: remaining(r).fees })));
  buckets.penalties = positive([{ instalmentId: null, amount: input.penaltyReceivable }]);
  buckets.overdueInterest = positive(
    overdue.map((r) => ({ instalmentId: r.id, amount: remaining(r).interest })),
  );
  buckets.overduePrincipal = positive(
    overdue.map((r) => ({ instalmentId: r.id, amount: remaining(r).principal })),
  );

  let interestCredit = 0;
  if (current && (!early || current.dueDate === d)) {
    const left = remaining(current);
    if (!early) buckets.currentInterest = positive([{ instalmentId: current.id, amount: left.interest }]);
    buckets.currentPrincipal = positive([{ instalmentId: current.id, amount: left.principal }]);
  }
  if (early) {
    const held = input.interestHeld - sum(buckets.overdueInterest);
    interestCredit = Math.max(0, -held);
    buckets.currentInterest = billedBy(
      rows.filter((r) => r.dueDate >= d),
      Math.max(0, held),
    );
    const dueToday = buckets.currentPrincipal;
    const prepayable =
      input.principalOutstanding -
      sum(buckets.overduePrincipal) -
      (current?.dueDate === d ? sum(dueToday) : 0);
    buckets.currentPrincipal = positive([
      ...dueToday,
      { instalmentId: null, amount: Math.max(0, prepayable) },
    ]);
  }

  const debts = Object.fromEntries(DEBT_COMPONENTS.map((c) => [c, sum(buckets[c])])) as Record<
    DebtComponent,
    number
  >;
  const order = early
    ? [...input.order.filter((c) => c !== 'currentPrincipal'), 'currentPrincipal' as const]
    : [...input.order];
  return { debts, order, buckets, current, interestCredit };
}

/**
 * Interest owed over the instalments that bill it, first ones first, each as far as it bills interest not
 * yet paid. Anything beyond (a residue no instalment bills) goes with the first; with no instalment left
 * (past maturity), with none.
 */
function billedBy(rows: readonly PositionRow[], amount: number): Bucket[] {
  const out: Bucket[] = [];
  let left = amount;
  for (const r of rows) {
    const take = Math.min(left, remaining(r).interest);
    if (take > 0) out.push({ instalmentId: r.id, amount: take });
    left -= take;
  }
  if (left > 0) {
    const id = rows[0]?.id ?? null;
    const first = out.find((b) => b.instalmentId === id);
    if (first) first.amount += left;
    else out.unshift({ instalmentId: id, amount: left });
  }
  return out;
}

/** A component's allocated amount split over its buckets, in order. */
export function spread(buckets: Bucket[], amount: number): Bucket[] {
  const out: Bucket[] = [];
  let left = amount;
  for (const b of buckets) {
    if (left <= 0) break;
    const take = Math.min(left, b.amount);
    out.push({ instalmentId: b.instalmentId, amount: take });
    left -= take;
  }
  if (left > 0) throw new Error(`allocation exceeds the debt by ${left}`);
  return out;
}

/**
 * Takes `credit` off the interest of new instalments, first ones first (interest paid ahead on the
 * instalment an early repayment replaced): the borrower never pays the same days' interest twice.
 */
export function creditInterest<T extends { interest: number; total: number }>(
  rows: T[],
  credit: number,
): T[] {
  let left = credit;
  return rows.map((r) => {
    const take = Math.min(left, r.interest);
    left -= take;
    return take ? { ...r, interest: r.interest - take, total: r.total - take } : r;
  });
}
