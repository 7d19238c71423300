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

/**
 * The whole order an allocation order names: the components it lists (any of the six, each at most
 * once, possibly none), then the ones it leaves out in the default order (DEBT_COMPONENTS). Null when it
 * is not a list, or lists a component twice or one that does not exist.
 */
export function completeAllocationOrder(order: unknown): DebtComponent[] | null {
  if (!Array.isArray(order) || order.length > DEBT_COMPONENTS.length) return null;
  const named = new Set<DebtComponent>();
  for (const c of order as unknown[]) {
    if (!DEBT_COMPONENTS.includes(c as DebtComponent) || named.has(c as DebtComponent)) return null;
    named.add(c as DebtComponent);
  }
  return [...named, ...DEBT_COMPONENTS.filter((c) => !named.has(c))];
}

/**
 * Validates an allocation order (a subset of the six components in the order they are settled, each at
 * most once) and returns it completed by completeAllocationOrder.
 */
export function checkAllocationOrder(order: unknown, field = 'order'): DebtComponent[] {
  const whole = completeAllocationOrder(order);
  if (whole === null) {
    throw mathError(
      C.INVALID_ORDER,
      field,
      `expected some of ${DEBT_COMPONENTS.join(', ')}, each at most once`,
    );
  }
  return whole;
}

export const allocationRule = (order: readonly DebtComponent[]) => `allocation.order:${order.join('>')}`;

/**
 * Splits `amount` across the debts strictly in `order` (completed: the components it leaves out follow
 * in the default order): each component is paid in full before the next
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
