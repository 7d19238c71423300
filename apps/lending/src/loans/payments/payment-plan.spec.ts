import fc from 'fast-check';
import { allocate, DEBT_COMPONENTS, interestBetween } from '../math';
import { fullyRepaid, paymentLines, rowsAfter } from './payment-booking';
import { creditInterest, planDebts, spread, type PositionRow } from './payment-plan';

const TERMS = { annualRate: '24', dayCount: '30/360' as const, rounding: 'half-up' as const };

/** A three-instalment annuity of 300 000 at 24% (monthly): due Feb 1, Mar 1, Apr 1. */
function rows(paid: Partial<Record<number, Partial<PositionRow['paid']>>> = {}): PositionRow[] {
  const base = [
    {
      number: 1,
      periodStart: '2026-01-01',
      dueDate: '2026-02-01',
      principal: 98_013,
      interest: 6_000,
      balanceAfter: 201_987,
    },
    {
      number: 2,
      periodStart: '2026-02-01',
      dueDate: '2026-03-01',
      principal: 99_973,
      interest: 4_040,
      balanceAfter: 102_014,
    },
    {
      number: 3,
      periodStart: '2026-03-01',
      dueDate: '2026-04-01',
      principal: 102_014,
      interest: 2_040,
      balanceAfter: 0,
    },
  ];
  return base.map((r) => ({
    ...r,
    id: `i${r.number}`,
    fees: r.number === 1 ? 1_000 : 0,
    paid: { principal: 0, interest: 0, fees: 0, ...paid[r.number] },
  }));
}

/**
 * The interest the ledger holds on `valueDate` for a schedule whose interest is all its own: what instalments
 * due before it bill, what the current period accrued to it (all of it when due that day), less paid.
 */
function held(r: PositionRow[], valueDate: string): number {
  return r.reduce((s, x) => {
    if (x.dueDate <= valueDate) return s + x.interest - x.paid.interest;
    if (x.periodStart >= valueDate) return s - x.paid.interest;
    const accrued = interestBetween(
      x.principal + x.balanceAfter,
      TERMS.annualRate,
      x.periodStart,
      valueDate,
      TERMS.dayCount,
      TERMS.rounding,
    ).rounded;
    return s + accrued - x.paid.interest;
  }, 0);
}

const plan = (valueDate: string, mode: 'regular' | 'reduceTerm' = 'regular', r = rows(), penalty = 0) =>
  planDebts({
    rows: r,
    valueDate,
    mode,
    order: DEBT_COMPONENTS,
    principalOutstanding: 300_000 - r.reduce((s, x) => s + x.paid.principal, 0),
    penaltyReceivable: penalty,
    interestHeld: held(r, valueDate),
  });

describe('the debts a payment settles', () => {
  it('on a regular payment: what is overdue, then the instalment the value date falls in', () => {
    const p = plan('2026-02-15', 'regular', rows(), 700);
    expect(p.debts).toEqual({
      fees: 1_000,
      penalties: 700,
      overdueInterest: 6_000,
      overduePrincipal: 98_013,
      currentInterest: 4_040,
      currentPrincipal: 99_973,
    });
    expect(p.current?.id).toBe('i2');
    expect(p.buckets.overduePrincipal).toEqual([{ instalmentId: 'i1', amount: 98_013 }]);
  });

  it('treats an instalment due on the value date as current, not overdue', () => {
    const p = plan('2026-02-01');
    expect([p.debts.overdueInterest, p.debts.currentInterest, p.current?.id]).toEqual([0, 6_000, 'i1']);
  });

  it('leaves out what was paid already', () => {
    const p = plan('2026-02-15', 'regular', rows({ 1: { interest: 6_000, principal: 50_000, fees: 1_000 } }));
    expect([p.debts.fees, p.debts.overdueInterest, p.debts.overduePrincipal]).toEqual([0, 0, 48_013]);
  });

  it('on an early repayment: interest to the value date only, all principal not overdue, principal last', () => {
    const p = planDebts({
      rows: rows(),
      valueDate: '2026-01-16',
      mode: 'reduceTerm',
      order: [
        'currentPrincipal',
        'currentInterest',
        'fees',
        'penalties',
        'overdueInterest',
        'overduePrincipal',
      ],
      principalOutstanding: 300_000,
      penaltyReceivable: 0,
      interestHeld: held(rows(), '2026-01-16'),
    });
    // 300 000 x 24% x 15/360 = 3 000
    expect([p.debts.currentInterest, p.debts.currentPrincipal, p.debts.fees]).toEqual([
      3_000, 300_000, 1_000,
    ]);
    expect(p.order.at(-1)).toBe('currentPrincipal');
    expect(p.buckets.currentPrincipal).toEqual([{ instalmentId: null, amount: 300_000 }]);
  });

  it('credits interest paid ahead beyond what accrued by an early repayment', () => {
    const p = plan(
      '2026-01-16',
      'reduceTerm',
      rows({ 1: { interest: 6_000, principal: 98_013, fees: 1_000 } }),
    );
    expect([p.debts.currentInterest, p.interestCredit]).toEqual([0, 3_000]);
    expect(
      creditInterest(
        [
          { interest: 2_000, total: 10_000 },
          { interest: 2_000, total: 10_000 },
        ],
        3_000,
      ),
    ).toEqual([
      { interest: 0, total: 8_000 },
      { interest: 1_000, total: 9_000 },
    ]);
  });

  it('owes on an early repayment the interest a later instalment bills: carried or deferred, already accrued', () => {
    // A holiday made instalment 1 pay nothing; instalment 2 bills its own 4 040 and 6 000 deferred.
    const r = rows().map((x) =>
      x.number === 1
        ? { ...x, principal: 0, interest: 0, fees: 0, balanceAfter: 300_000 }
        : x.number === 2
          ? { ...x, interest: 10_040 }
          : x,
    );
    // On 2026-01-16 the ledger holds 5 000 carried from before the holiday and 3 000 accrued since.
    const p = plan('2026-01-16', 'reduceTerm', r);
    expect(p.debts.currentInterest).toBe(3_000);
    const q = planDebts({
      rows: r,
      valueDate: '2026-01-16',
      mode: 'reduceTerm',
      order: DEBT_COMPONENTS,
      principalOutstanding: 300_000,
      penaltyReceivable: 0,
      interestHeld: 8_000,
    });
    // All of it owed, on the instalment that bills it (the first one bills nothing).
    expect([q.debts.currentInterest, q.buckets.currentInterest]).toEqual([
      8_000,
      [{ instalmentId: 'i2', amount: 8_000 }],
    ]);
    // A residue no instalment bills goes with the first that does.
    const over = planDebts({
      rows: r.slice(0, 2),
      valueDate: '2026-01-16',
      mode: 'reduceTerm',
      order: DEBT_COMPONENTS,
      principalOutstanding: 300_000,
      penaltyReceivable: 0,
      interestHeld: 10_041,
    });
    expect(over.buckets.currentInterest).toEqual([
      { instalmentId: 'i1', amount: 1 },
      { instalmentId: 'i2', amount: 10_040 },
    ]);
    // Past maturity, with none.
    const none = planDebts({
      rows: r,
      valueDate: '2026-05-01',
      mode: 'reduceTerm',
      order: DEBT_COMPONENTS,
      principalOutstanding: 0,
      penaltyReceivable: 0,
      interestHeld: 12_081,
    });
    expect([none.debts.overdueInterest, none.buckets.currentInterest]).toEqual([
      12_080,
      [{ instalmentId: null, amount: 1 }],
    ]);
  });

  it('spreads a part over its instalments oldest first, never beyond the debt', () => {
    const b = [
      { instalmentId: 'a', amount: 5 },
      { instalmentId: 'b', amount: 7 },
    ];
    expect(spread(b, 9)).toEqual([
      { instalmentId: 'a', amount: 5 },
      { instalmentId: 'b', amount: 4 },
    ]);
    expect(() => spread(b, 13)).toThrow(/exceeds/);
  });
});

describe('the lines of a payment (property)', () => {
  it('always balance, credit exactly the allocation, and never pay an instalment beyond its amounts', () => {
    const dates = [
      '2026-01-01',
      '2026-01-20',
      '2026-02-01',
      '2026-02-20',
      '2026-03-01',
      '2026-04-01',
      '2026-05-01',
    ];
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 500_000 }),
        fc.constantFrom(...dates),
        fc.constantFrom('regular' as const, 'reduceTerm' as const),
        fc.integer({ min: 0, max: 5_000 }),
        fc.integer({ min: 0, max: 10_000 }),
        fc.shuffledSubarray([...DEBT_COMPONENTS], { minLength: 6, maxLength: 6 }),
        (amount, valueDate, mode, penalty, receivable, order) => {
          const r = rows();
          const p = planDebts({
            rows: r,
            valueDate,
            mode,
            order,
            principalOutstanding: 300_000,
            penaltyReceivable: penalty,
            interestHeld: held(r, valueDate),
          });
          const allocation = allocate(amount, p.debts, p.order);
          const booking = paymentLines(amount, p, allocation, receivable);
          const debits = booking.lines.reduce((s, l) => s + l.debit, 0);
          const credits = booking.lines.reduce((s, l) => s + l.credit, 0);
          expect([debits, credits]).toEqual([amount, amount]);
          const parts = Object.values(allocation.parts).reduce((s, v) => s + v, 0);
          expect(parts + allocation.overpayment).toBe(amount);
          for (const x of rowsAfter(r, booking.lines, new Set()))
            expect(
              x.paid.principal <= x.principal && x.paid.interest <= x.interest && x.paid.fees <= x.fees,
            ).toBe(true);
          expect(booking.principalPaid).toBeLessThanOrEqual(300_000);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('is fully repaid only when principal, instalments, fees and penalties are all settled', () => {
    const paid = rows({
      1: { principal: 98_013, interest: 6_000, fees: 1_000 },
      2: { principal: 99_973, interest: 4_040 },
      3: { principal: 102_014, interest: 2_040 },
    });
    const zero = { loan_principal: 0, overdue_principal: 0, fee_receivable: 0, penalty_receivable: 0 };
    expect(fullyRepaid(paid, zero)).toBe(true);
    expect(fullyRepaid(paid, { ...zero, penalty_receivable: 1 })).toBe(false);
    // Principal past due is principal owed.
    expect(fullyRepaid(paid, { ...zero, overdue_principal: 1 })).toBe(false);
    expect(fullyRepaid(rows(), zero)).toBe(false);
  });
});
