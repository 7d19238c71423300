import { LoanMathErrorCode as C, mathError } from './errors';
import { minor, toNumber } from './money';

/** The debt components a payment is split across. */
export type DebtComponent =
  'fees' | 'penalties' | 'overdueInterest' | 'overduePrincipal' | 'currentInterest' | 'currentPrincipal';

/** All six, in the conventional default order (costs first, then overdue, then current). */
export const DEBT_COMPONENTS: readonly DebtComponent[] = [
  'fees',
  'penalties',
  'overdueInterest',
  'overduePrincipal',
  'currentInterest',
  'currentPrincipal',
];

export interface Allocation {
  /** Amount applied to each component; never more than its debt. */
  parts: Record<DebtComponent, number>;
  /** What is left after every component is paid (amount - sum of parts). */
  overpayment: number;
  /** Stable id of the rule that produced the split: `allocation.order:fees>penalties>...`. */
  rule: string;
}

/** Validates that `order` lists each of the six components exactly once; returns it as given. */
export function checkAllocationOrder(order: unknown, field = 'order'): DebtComponent[] {
  if (!Array.isArray(order) || order.length !== DEBT_COMPONENTS.length) {
    throw mathError(C.INVALID_ORDER, field, `expected the ${DEBT_COMPONENTS.length} components, each once`);
  }
  const seen = new Set<string>();
  for (const c of order) {
    if (!DEBT_COMPONENTS.includes(c as DebtComponent) || seen.has(c as string)) {
      throw mathError(C.INVALID_ORDER, field, `unknown or repeated component ${String(c).slice(0, 40)}`);
    }
    seen.add(c as string);
  }
  return order as DebtComponent[];
}

export const allocationRule = (order: readonly DebtComponent[]) => `allocation.order:${order.join('>')}`;

/**
 * Splits `amount` across the debts strictly in `order`: each component is paid in full before the next
 * gets anything; what exceeds the total debt is the overpayment (the caller decides: early repayment,
 * advance, refund). Pure: no rounding happens, all values are whole minor units.
 */
export function allocate(
  amount: number,
  debts: Record<DebtComponent, number>,
  order: DebtComponent[],
): Allocation {
  let left = minor(amount, 'amount');
  const checked = checkAllocationOrder(order);
  if (typeof debts !== 'object' || debts === null) {
    throw mathError(C.INVALID_AMOUNT, 'debts', 'expected an amount per component');
  }
  const parts = {} as Record<DebtComponent, number>;
  for (const c of DEBT_COMPONENTS) parts[c] = 0;
  const owed = DEBT_COMPONENTS.map((c) => [c, minor(debts[c], `debts.${c}`)] as const);
  const debtOf = new Map(owed);
  for (const c of checked) {
    const debt = debtOf.get(c) ?? 0n;
    const paid = left < debt ? left : debt;
    parts[c] = toNumber(paid, `parts.${c}`);
    left -= paid;
  }
  return { parts, overpayment: toNumber(left, 'overpayment'), rule: allocationRule(checked) };
}
