import { LOAN_STATUSES, LOAN_TRANSITIONS, TERMINAL_LOAN_STATUSES, findLoanTransition } from './loan-workflow';
import { bpsToPercent, normaliseRate, percentOf, periodsOfMonths, rateWithinLimit } from './loan-terms';

describe('loan terms', () => {
  it('writes rates in their shortest form and converts basis points exactly', () => {
    expect(['24.5000000000', '0.0000000000', '8.0000000000', '12'].map(normaliseRate)).toEqual([
      '24.5',
      '0',
      '8',
      '12',
    ]);
    expect([bpsToPercent(2450), bpsToPercent(5), bpsToPercent(1200)]).toEqual(['24.5', '0.05', '12']);
    expect([rateWithinLimit('999.9999999999'), rateWithinLimit('1000'), rateWithinLimit('-1')]).toEqual([
      true,
      false,
      false,
    ]);
  });

  it('takes a percentage of an amount exactly, rounding half up', () => {
    expect(percentOf(1_000_000, '1.5')).toBe(15_000);
    expect(percentOf(333, '0.5')).toBe(2); // 1.665
    expect(percentOf(100, '0.5')).toBe(1); // 0.5
    expect(percentOf(900_000_000_000_000, '0.0000000001')).toBe(900);
  });

  it('converts an approved term in months to the product periods only when exact', () => {
    expect([
      periodsOfMonths(12, 'monthly'),
      periodsOfMonths(12, 'quarterly'),
      periodsOfMonths(10, 'quarterly'),
    ]).toEqual([12, 4, null]);
    expect(periodsOfMonths(12, 'weekly')).toBeNull();
  });
});

describe('the loan workflow table', () => {
  it('names only known statuses, reaches each from created, and ends in the terminal ones', () => {
    const seen = new Set<string>(['created']);
    for (let grew = true; grew;) {
      grew = false;
      for (const t of LOAN_TRANSITIONS)
        if (seen.has(t.from) && !seen.has(t.to)) grew = seen.add(t.to).size > 0;
    }
    expect([...seen].sort()).toEqual([...LOAN_STATUSES].sort());
    expect([...TERMINAL_LOAN_STATUSES].sort()).toEqual(['cancelled', 'written_off']);
  });

  it('allows the documented moves and nothing else', () => {
    expect(findLoanTransition('created', 'active', 'DisburseLoan')).not.toBeNull();
    expect(findLoanTransition('closed', 'active', 'ReversePayment')).not.toBeNull();
    expect(findLoanTransition('active', 'active', 'DisburseLoan')).toBeNull();
    expect(findLoanTransition('created', 'written_off', 'WriteOffLoan')).toBeNull();
    expect(findLoanTransition('cancelled', 'active', 'DisburseLoan')).toBeNull();
  });
});
