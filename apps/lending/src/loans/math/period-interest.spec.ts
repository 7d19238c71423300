import { LoanMathError, generateSchedule, interestBetween, periodInterest } from './index';

describe('periodInterest: what one schedule period bills of its own', () => {
  const annuity = { scheduleType: 'annuity', dayCount: 'ACT/365F', frequency: 'monthly' } as const;

  it("is the annuity's periodic rate on a regular period whatever the day count", () => {
    // 10,000.00 at 8%: 1,000,000 / 150 = 6,666.67 (the Excel loan's first instalment).
    expect(periodInterest(1_000_000, '8', '2025-01-15', '2025-02-15', annuity)).toEqual({
      exact: '6666.666666666667',
      rounded: 6667,
    });
    // 31 or 28 days: the same, which day-count accrual of the period is not.
    expect(periodInterest(1_000_000, '8', '2025-02-15', '2025-03-15', annuity).rounded).toBe(6667);
    expect(interestBetween(1_000_000, '8', '2025-01-15', '2025-02-15', 'ACT/365F').rounded).toBe(6795);
  });

  it('is day-count interest on a broken annuity period and on every differentiated or bullet period', () => {
    expect(periodInterest(1_000_000, '8', '2025-01-15', '2025-03-01', annuity).rounded).toBe(9863);
    for (const scheduleType of ['differentiated', 'bullet'] as const)
      expect(
        periodInterest(1_200_000, '12', '2025-01-15', '2025-02-15', { ...annuity, scheduleType }),
      ).toEqual(interestBetween(1_200_000, '12', '2025-01-15', '2025-02-15', 'ACT/365F'));
  });

  it('agrees with the interest generateSchedule puts in each instalment without grace or fees', () => {
    for (const scheduleType of ['annuity', 'differentiated', 'bullet'] as const) {
      const rows = generateSchedule({
        principal: 1_234_567,
        annualRate: '19.99',
        termCount: 7,
        frequency: 'monthly',
        scheduleType,
        dayCount: 'ACT/ACT',
        disbursementDate: '2024-01-31',
        firstDueDate: '2024-03-10',
      });
      for (const r of rows)
        expect(
          periodInterest(r.principal + r.balanceAfter, '19.99', r.periodStart, r.dueDate, {
            scheduleType,
            dayCount: 'ACT/ACT',
            frequency: 'monthly',
          }).rounded,
        ).toBe(r.interest);
    }
  });

  it('refuses an empty period', () => {
    expect(() => periodInterest(100, '8', '2025-01-15', '2025-01-15', annuity)).toThrow(LoanMathError);
  });
});
