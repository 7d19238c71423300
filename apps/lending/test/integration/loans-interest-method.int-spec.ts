import { startLending, type LendingFixture } from './lending-fixture';
import { ledgerOf } from './loans-accruals-helpers';
import {
  activeLoan,
  idem,
  monthsAgo,
  ok,
  unbalancedTransactions,
  type InstalmentView,
  type PaymentView,
} from './loans-helpers';

const DAY_MS = 86_400_000;
const daysOf = (r: InstalmentView) => (Date.parse(r.dueDate) - Date.parse(r.periodStart)) / DAY_MS;
/** round half-up(balance x 24% x days / 365), in bigint: the oracle, independent of the loan math. */
const act365At24 = (balance: number, days: number) => {
  const num = BigInt(balance) * 24n * BigInt(days);
  const den = 100n * 365n;
  return Number((2n * num + den) / (2n * den));
};
const opening = (r: InstalmentView) => r.principal + r.balanceAfter;
const DAY_COUNT = { dayCount: 'ACT/365F', interestMethod: 'day-count' };

describe("lending: an annuity billed by each period's days (interestMethod day-count, real PostgreSQL)", () => {
  let s: LendingFixture;
  let a: Record<string, string>;

  beforeAll(async () => {
    s = await startLending('lending_interest_method');
    a = await s.organization('bank-a');
  }, 60_000);

  afterAll(async () => {
    await s?.close();
  });

  afterEach(async () => {
    expect(await unbalancedTransactions(s)).toEqual([]);
  });

  const schedule = async (loanId: string) =>
    (await ok<{ items: InstalmentView[] }>(s.call(a, 'GET', `/Loans/GetLoanSchedule?LoanId=${loanId}`)))
      .items;

  /** The loan's interest accruals: what each instalment's days posted, and the period-end true-ups. */
  async function accrued(loanId: string) {
    const txs = (await ledgerOf(s, loanId)).filter((t) => t.kind === 'interest_accrual');
    const byInstalment = new Map<number, number>();
    for (const t of txs.filter((x) => !x.details.adjustment)) {
      const n = t.details.instalmentNumber as number;
      byInstalment.set(n, (byInstalment.get(n) ?? 0) + t.amount);
    }
    return { byInstalment, trueUps: txs.filter((x) => x.details.adjustment === 'period-end') };
  }

  it('DisburseLoan bills each period its days; the instalment is PMT and the last takes the rest', async () => {
    const { schedule: rows } = await activeLoan(s, a, 'bank-a', { product: DAY_COUNT });
    expect(rows).toHaveLength(12);
    // 1 000 000 at 24% over 12 months: PMT(2%, 12, -1 000 000) = 94 559.60 -> 94 560.
    rows.forEach((r, k) => {
      expect(r.interest).toBe(act365At24(opening(r), daysOf(r)));
      if (k < rows.length - 1) expect(r.principal + r.interest).toBe(94_560);
    });
    expect(rows[rows.length - 1].balanceAfter).toBe(0);
    expect(rows.reduce((t, r) => t + r.principal, 0)).toBe(1_000_000);
  });

  it("the accruals post exactly each period's instalment interest: no true-up, unlike periodic", async () => {
    const disbursedOn = monthsAgo(3, 15);
    const today = new Date().toISOString().slice(0, 10);
    const { loan } = await activeLoan(s, a, 'bank-a', { product: DAY_COUNT, disbursedOn });
    const { loan: periodic } = await activeLoan(s, a, 'bank-a', {
      product: { dayCount: 'ACT/365F' },
      disbursedOn,
    });
    for (const id of [loan.id, periodic.id])
      await ok(s.call(a, 'POST', '/Loans/RunAccruals', { loanId: id }));
    const rows = await schedule(loan.id);
    const done = rows.filter((r) => r.dueDate <= today);
    expect(done.length).toBeGreaterThanOrEqual(2);
    const mine = await accrued(loan.id);
    for (const r of done) expect(mine.byInstalment.get(r.number)).toBe(r.interest);
    expect(mine.trueUps).toEqual([]);
    // The periodic loan bills 2% a month and accrues the days: its 28-31 day months are trued up.
    expect((await accrued(periodic.id)).trueUps.length).toBeGreaterThan(0);
  });

  it('an early repayment regenerates the schedule by the same method', async () => {
    const { loan, schedule: rows } = await activeLoan(s, a, 'bank-a', { product: DAY_COUNT });
    const p = await ok<PaymentView>(
      s.call(idem(a), 'POST', '/Loans/MakePayment', {
        loanId: loan.id,
        amount: 300_000,
        mode: 'reduceInstalment',
      }),
    );
    expect(p.scheduleChanged).toBe(true);
    const after = await schedule(loan.id);
    expect(after.map((r) => r.dueDate)).toEqual(rows.map((r) => r.dueDate));
    expect(after.reduce((t, r) => t + r.principal, 0)).toBe(700_000);
    // PMT(2%, 12, -700 000) = 66 191.72 -> 66 192; interest by each period's days on its balance.
    after.forEach((r, k) => {
      expect(r.interest).toBe(act365At24(opening(r), daysOf(r)));
      if (k < after.length - 1) expect(r.principal + r.interest).toBe(66_192);
    });
  });
});
