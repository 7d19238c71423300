import {
  contractSchedule,
  costFlows,
  costOfCreditOf,
  loanCostOfCredit,
  offerCostOfCredit,
} from './cost-of-credit';
import type { Loan } from './loan.entity';
import { annualPercentageRate, fullCostOfCredit } from './math';
import type { LoanProduct } from './products/loan-product.entity';

const loan = (over: Partial<Loan> = {}) =>
  ({
    status: 'created',
    principal: 1_000_000,
    annualRate: '24',
    termCount: 12,
    frequency: 'monthly',
    scheduleType: 'annuity',
    dayCount: '30/360',
    graceInterestOnly: 0,
    gracePrincipal: 0,
    rounding: 'half-up',
    originationFee: 0,
    disbursedOn: null,
    ...over,
  }) as Loan;

describe("a loan's cost of credit", () => {
  it('before the disbursement: the schedule its terms make from today, the same flows as the pure functions', () => {
    const l = loan({ originationFee: 20_000 });
    const c = loanCostOfCredit(l, [], '2026-03-10');
    const rows = contractSchedule(l, '2026-03-10');
    const flows = costFlows(l.principal, '2026-03-10', rows);
    expect(c).toMatchObject({
      basis: 'terms',
      disbursementDate: '2026-03-10',
      fullCostRate: fullCostOfCredit(flows, { unit: 'month', count: 1 }).rate,
      apr: annualPercentageRate(flows, { unit: 'month', count: 1 }).rate,
      fullCostAmount: rows.reduce((s, r) => s + r.total, 0) - l.principal,
    });
    // The fee is part of the cost: dearer than the nominal 24%.
    expect(Number(c?.fullCostRate)).toBeGreaterThan(27);
    expect(Number(loanCostOfCredit(loan(), [], '2026-03-10')?.fullCostRate)).toBeCloseTo(24, 1);
  });

  it('after the disbursement from the rows in force; none for a cancelled contract', () => {
    const rows = contractSchedule(loan(), '2026-01-15');
    const paidOut = loan({ status: 'active', disbursedOn: '2026-01-15' });
    expect(loanCostOfCredit(paidOut, rows, '2026-12-01')).toMatchObject({
      basis: 'schedule',
      disbursementDate: '2026-01-15',
    });
    expect(loanCostOfCredit(loan({ status: 'cancelled' }), [], '2026-12-01')).toBeNull();
  });

  it('counts principal repaid ahead of the schedule on the day the next schedule starts', () => {
    const rows = [
      {
        periodStart: '2026-01-15',
        dueDate: '2026-02-15',
        principal: 400,
        interest: 20,
        fees: 0,
        balanceAfter: 600,
      },
      // 300 prepaid on Mar 1: the new schedule starts from 300.
      {
        periodStart: '2026-03-01',
        dueDate: '2026-03-15',
        principal: 300,
        interest: 3,
        fees: 0,
        balanceAfter: 0,
      },
    ];
    expect(costFlows(1_000, '2026-01-15', rows)).toEqual([
      { date: '2026-01-15', amount: -1_000 },
      { date: '2026-02-15', amount: 420 },
      { date: '2026-03-01', amount: 300 },
      { date: '2026-03-15', amount: 303 },
    ]);
  });

  it("an offer: the product's terms with the offered amount, term and rate", () => {
    const product = {
      frequency: 'monthly',
      scheduleType: 'annuity',
      dayCount: '30/360',
      graceInterestOnly: 0,
      gracePrincipal: 0,
      rounding: 'half-up',
      annualRate: '30',
      originationFee: 0,
      originationFeePercent: '0',
    } as LoanProduct;
    const offered = offerCostOfCredit(
      product,
      { amount: 1_000_000, termMonths: 12, annualRateBps: 2400 },
      '2026-03-10',
    );
    expect(offered).toEqual(loanCostOfCredit(loan(), [], '2026-03-10'));
    // No rate offered: the product's.
    expect(
      Number(
        offerCostOfCredit(product, { amount: 1_000_000, termMonths: 12, annualRateBps: null }, '2026-03-10')
          ?.apr,
      ),
    ).toBeCloseTo(30, 1);
    // A term that is not whole periods of the product has no schedule, so no cost.
    expect(
      offerCostOfCredit(
        { ...product, frequency: 'quarterly' } as LoanProduct,
        { amount: 1, termMonths: 4, annualRateBps: null },
        '2026-03-10',
      ),
    ).toBeNull();
  });

  it('a single payment counts in its term; no payment, no cost', () => {
    const one = costOfCreditOf(
      [
        { date: '2026-03-01', amount: -1_000_000 },
        { date: '2026-03-31', amount: 1_300_000 },
      ],
      'monthly',
      'schedule',
    );
    expect(one).toMatchObject({
      fullCostRate: '365.000',
      method: { basePeriodUnit: 'day', basePeriodCount: 30, unitPeriodUnit: 'term', unitPeriodCount: 30 },
    });
    expect(costOfCreditOf([{ date: '2026-03-01', amount: -1 }], 'monthly', 'schedule')).toBeNull();
  });
});
