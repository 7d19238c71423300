import { withClient } from '@platform/testing';
import { annualPercentageRate, fullCostOfCredit } from '../../src/loans/math';
import { startLending, type LendingFixture } from './lending-fixture';
import {
  approvedApplication,
  idem,
  ok,
  productBody,
  unbalancedTransactions,
  type InstalmentView,
  type LoanView,
} from './loans-helpers';

interface CostOfCredit {
  fullCostRate: string;
  fullCostAmount: number;
  apr: string;
  basis: string;
  disbursementDate: string;
  method: {
    basePeriodUnit: string;
    periodsPerYear: string;
    unitPeriodsPerYear: string;
    aprTolerance: string;
  };
}
type Costed = LoanView & { costOfCredit: CostOfCredit | null };
interface ScheduleView {
  items: InstalmentView[];
  total: number;
  costOfCredit: CostOfCredit | null;
}

const today = () => new Date().toISOString().slice(0, 10);
const month = { unit: 'month', count: 1 } as const;

/** ПСК and APR of the principal out on `on` and the instalments back, by the pure functions. */
function expected(principal: number, on: string, rows: InstalmentView[]) {
  const flows = [
    { date: on, amount: -principal },
    ...rows.map((r) => ({ date: r.dueDate, amount: r.principal + r.interest + r.fees })),
  ];
  return {
    fullCostRate: fullCostOfCredit(flows, month).rate,
    apr: annualPercentageRate(flows, month).rate,
    fullCostAmount: rows.reduce((s, r) => s + r.total, 0) - principal,
  };
}

describe('lending: the full cost of credit on the offer, the contract, the schedule and the loan (real PostgreSQL)', () => {
  let s: LendingFixture;
  let a: Record<string, string>;

  beforeAll(async () => {
    s = await startLending('lending_cost_of_credit');
    a = await s.organization('bank-coc');
  }, 60_000);

  afterAll(async () => {
    await s?.close();
  });

  afterEach(async () => {
    expect(await unbalancedTransactions(s)).toEqual([]);
  });

  it('shows one value on all four reads of one loan, equal to the pure functions on its schedule', async () => {
    // The applications the rules approve ask for CONSUMER_CASH: 1 000 000 over 12 months. A fee makes
    // the full cost exceed the nominal 24%.
    const product = await ok<{ id: string }>(
      s.call(
        a,
        'POST',
        '/Loans/CreateLoanProduct',
        productBody({ code: 'CONSUMER_CASH', originationFee: 15_000 }),
      ),
      201,
    );
    const applicationId = await approvedApplication(s, a, 'bank-coc');

    // 1. The offer of the approved application.
    const app = await ok<{ decision: { offer: { amount: number; costOfCredit: CostOfCredit | null } } }>(
      s.call(a, 'GET', `/Applications/GetApplication?ApplicationId=${applicationId}`),
    );
    const offer = app.decision.offer.costOfCredit;
    expect(offer).toMatchObject({ basis: 'terms', disbursementDate: today() });
    expect(Number(offer?.fullCostRate)).toBeGreaterThan(26);
    const decisions = await ok<{ items: { offer: { costOfCredit: CostOfCredit | null } | null }[] }>(
      s.call(a, 'GET', `/Applications/GetDecisions?ApplicationId=${applicationId}`),
    );
    expect(decisions.items.at(-1)?.offer?.costOfCredit).toEqual(offer);

    // 2. The contract: the same terms, so the same figures as the offer, before any disbursement.
    const created = await ok<Costed>(
      s.call(a, 'POST', '/Loans/CreateLoan', { applicationId, productId: product.id }),
      201,
    );
    expect(created.costOfCredit).toEqual(offer);
    const before = await ok<ScheduleView>(s.call(a, 'GET', `/Loans/GetLoanSchedule?LoanId=${created.id}`));
    // Before the disbursement the schedule read shows the cost its terms project, as GetLoan does.
    expect(before).toMatchObject({ items: [], total: 0, costOfCredit: created.costOfCredit });
    expect(before.costOfCredit).not.toBeNull();

    // 3 and 4. Paid out today: the schedule read and GetLoan agree, from the stored schedule.
    await ok(s.call(idem(a), 'POST', '/Loans/DisburseLoan', { loanId: created.id }));
    const schedule = await ok<ScheduleView>(s.call(a, 'GET', `/Loans/GetLoanSchedule?LoanId=${created.id}`));
    const loan = await ok<Costed>(s.call(a, 'GET', `/Loans/GetLoan?LoanId=${created.id}`));
    expect(schedule.costOfCredit).toEqual(loan.costOfCredit);
    expect(loan.costOfCredit).toMatchObject({
      basis: 'schedule',
      disbursementDate: today(),
      ...expected(created.principal, today(), schedule.items),
      method: {
        basePeriodUnit: 'month',
        periodsPerYear: '12',
        unitPeriodsPerYear: '12',
        aprTolerance: '0.125',
      },
    });
    // Disbursed today on the terms' own schedule: the figures the contract promised.
    const { basis: _b, ...figures } = loan.costOfCredit as CostOfCredit;
    const { basis: _o, ...promised } = offer as CostOfCredit;
    expect(figures).toEqual(promised);

    // The bureau's contract event carries the same ПСК (one computation).
    const concluded = await withClient(s.db.url, async (c) => {
      const r = await c.query<{ payload: { fullCostRate: string; fullCostAmount: number } }>(
        `SELECT payload FROM lending.outbox WHERE aggregate_id = $1 AND event_type = 'lending.bureau.loan-contract-concluded'`,
        [created.id],
      );
      return r.rows[0]?.payload;
    });
    expect(concluded).toMatchObject({
      fullCostRate: loan.costOfCredit?.fullCostRate,
      fullCostAmount: loan.costOfCredit?.fullCostAmount,
    });
  });

  it('after an early repayment the loan and the schedule read still agree, from the schedule in force', async () => {
    const product = await ok<{ id: string }>(
      s.call(a, 'POST', '/Loans/CreateLoanProduct', productBody()),
      201,
    );
    const applicationId = await approvedApplication(s, a, 'bank-coc');
    const created = await ok<Costed>(
      s.call(a, 'POST', '/Loans/CreateLoan', { applicationId, productId: product.id }),
      201,
    );
    await ok(s.call(idem(a), 'POST', '/Loans/DisburseLoan', { loanId: created.id }));
    const first = await ok<Costed>(s.call(a, 'GET', `/Loans/GetLoan?LoanId=${created.id}`));
    // Half the principal back today, the term shortened.
    await ok(
      s.call(idem(a), 'POST', '/Loans/MakePayment', {
        loanId: created.id,
        amount: 500_000,
        mode: 'reduceTerm',
      }),
    );
    const schedule = await ok<ScheduleView>(s.call(a, 'GET', `/Loans/GetLoanSchedule?LoanId=${created.id}`));
    const loan = await ok<Costed>(s.call(a, 'GET', `/Loans/GetLoan?LoanId=${created.id}`));
    expect(schedule.costOfCredit).toEqual(loan.costOfCredit);
    expect(loan.costOfCredit).toMatchObject({ basis: 'schedule', disbursementDate: today() });
    // Less interest is paid: the cost in money falls; the rate stays near the nominal 24%.
    expect(loan.costOfCredit?.fullCostAmount).toBeLessThan(first.costOfCredit?.fullCostAmount ?? 0);
    expect(Number(loan.costOfCredit?.fullCostRate)).toBeGreaterThan(23);
    expect(Number(loan.costOfCredit?.fullCostRate)).toBeLessThan(25);
  });

  it('has no cost once the contract is cancelled', async () => {
    const product = await ok<{ id: string }>(
      s.call(a, 'POST', '/Loans/CreateLoanProduct', productBody()),
      201,
    );
    const applicationId = await approvedApplication(s, a, 'bank-coc');
    const created = await ok<Costed>(
      s.call(a, 'POST', '/Loans/CreateLoan', { applicationId, productId: product.id }),
      201,
    );
    expect(created.costOfCredit?.basis).toBe('terms');
    const cancelled = await ok<Costed>(s.call(a, 'POST', '/Loans/CancelLoan', { loanId: created.id }));
    expect(cancelled.costOfCredit).toBeNull();
  });
});
