import { LoanMathErrorCode } from './errors';
import { DEBT_COMPONENTS, type DebtComponent, allocate, completeAllocationOrder } from './index';

const debts: Record<DebtComponent, number> = {
  fees: 1_000,
  penalties: 250,
  overdueInterest: 3_000,
  overduePrincipal: 20_000,
  currentInterest: 2_500,
  currentPrincipal: 50_000,
};
const standard: DebtComponent[] = [...DEBT_COMPONENTS];

describe('allocate', () => {
  it('pays each component in full before the next, and names the rule', () => {
    const a = allocate(10_000, debts, standard);
    expect(a).toEqual({
      parts: {
        fees: 1_000,
        penalties: 250,
        overdueInterest: 3_000,
        overduePrincipal: 5_750,
        currentInterest: 0,
        currentPrincipal: 0,
      },
      overpayment: 0,
      rule: 'allocation.order:fees>penalties>overdueInterest>overduePrincipal>currentInterest>currentPrincipal',
    });
  });

  it('follows another order (overdue principal and interest before costs)', () => {
    const order: DebtComponent[] = [
      'overdueInterest',
      'overduePrincipal',
      'penalties',
      'fees',
      'currentInterest',
      'currentPrincipal',
    ];
    const a = allocate(23_500, debts, order);
    expect(a.parts).toEqual({
      fees: 250,
      penalties: 250,
      overdueInterest: 3_000,
      overduePrincipal: 20_000,
      currentInterest: 0,
      currentPrincipal: 0,
    });
    expect(a.rule).toBe(
      'allocation.order:overdueInterest>overduePrincipal>penalties>fees>currentInterest>currentPrincipal',
    );
  });

  it('returns what exceeds the total debt as overpayment, and skips zero debts', () => {
    const a = allocate(100_000, { ...debts, penalties: 0 }, standard);
    expect(a.parts.penalties).toBe(0);
    expect(a.parts.currentPrincipal).toBe(50_000);
    expect(a.overpayment).toBe(100_000 - 76_500); // total debt 76,750 less the 250 of penalties now 0
    expect(allocate(0, debts, standard).overpayment).toBe(0);
  });

  it('completes an order that names some components with the rest in the default order', () => {
    // Named first, the overdue principal takes 20,000.00 of 21,500.00; the components left out follow in
    // the default order: fees 1,000.00, penalties 250.00, and the last 250.00 to the overdue interest.
    const a = allocate(21_500, debts, ['overduePrincipal']);
    expect(a.parts).toEqual({
      fees: 1_000,
      penalties: 250,
      overdueInterest: 250,
      overduePrincipal: 20_000,
      currentInterest: 0,
      currentPrincipal: 0,
    });
    expect(a.rule).toBe(
      'allocation.order:overduePrincipal>fees>penalties>overdueInterest>currentInterest>currentPrincipal',
    );
    expect(completeAllocationOrder(['currentPrincipal', 'penalties'])).toEqual([
      'currentPrincipal',
      'penalties',
      'fees',
      'overdueInterest',
      'overduePrincipal',
      'currentInterest',
    ]);
    expect(completeAllocationOrder([])).toEqual(standard);
    expect(allocate(1, debts, []).rule).toBe(allocate(1, debts, standard).rule);
    expect(completeAllocationOrder(['fees', 'fees'])).toBeNull();
    expect(completeAllocationOrder(['interest'])).toBeNull();
  });

  it.each<[unknown, string]>([
    [['penalties', 'penalties'], 'a component twice in a subset'],
    [['principal'], 'an unknown component alone'],
    [[...standard.slice(0, 5), 'fees'], 'a repeated component'],
    [[...standard.slice(0, 5), 'principal'], 'an unknown component'],
    [[...standard, 'fees'], 'seven entries'],
    ['fees>penalties', 'a string'],
  ])('refuses an order with %s (%s)', (order) => {
    expect(() => allocate(1, debts, order as DebtComponent[])).toThrow(
      expect.objectContaining({ code: LoanMathErrorCode.INVALID_ORDER }),
    );
  });

  it('refuses fractional, negative or missing amounts', () => {
    expect(() => allocate(1.5, debts, standard)).toThrow(RangeError);
    expect(() => allocate(-1, debts, standard)).toThrow(expect.objectContaining({ field: 'amount' }));
    expect(() => allocate(1, { ...debts, fees: -5 }, standard)).toThrow(
      expect.objectContaining({ field: 'debts.fees' }),
    );
    const { penalties: _drop, ...partial } = debts;
    expect(() => allocate(1, partial as Record<DebtComponent, number>, standard)).toThrow(
      expect.objectContaining({ field: 'debts.penalties' }),
    );
  });
});
