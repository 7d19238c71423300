import { startLending, type LendingFixture } from './lending-fixture';
import { lastOf, ledgerOf } from './loans-accruals-helpers';
import {
  activeLoan,
  dayFromToday,
  idem,
  monthsAgo,
  ok,
  partsOf,
  unbalancedTransactions,
  type BalancesView,
  type InstalmentView,
  type PaymentView,
} from './loans-helpers';
import { expectInterestAgrees } from './loans-interest-helpers';

const today = () => new Date().toISOString().slice(0, 10);
const sum = (xs: number[]) => xs.reduce((x, y) => x + y, 0);
const debtsOf = (p: PaymentView) => Object.fromEntries(p.parts.map((x) => [x.component, x.debt]));

interface ChangeView {
  transactionId: string;
  carriedInterest: number;
  schedule: InstalmentView[];
}

/**
 * Interest the ledger holds as receivable (accrued, carried by a schedule change, deferred by a holiday)
 * is always either billed by an instalment of the schedule in force or part of the payoff debt
 * (docs/lending/loans.md, "Interest the ledger holds"): checked with the identity after every operation.
 */
describe('lending loans: interest held is billed or owed, never lost (real PostgreSQL)', () => {
  let s: LendingFixture;
  let a: Record<string, string>;

  beforeAll(async () => {
    s = await startLending('lending_loan_interest');
    a = await s.organization('bank-a');
  }, 60_000);

  afterAll(async () => {
    await s?.close();
  });

  afterEach(async () => {
    expect(await unbalancedTransactions(s)).toEqual([]);
  });

  const agrees = (loanId: string) => expectInterestAgrees(s, a, loanId);
  const pay = (loanId: string, body: Record<string, unknown>) =>
    s.call<PaymentView>(idem(a), 'POST', '/Loans/MakePayment', { loanId, ...body });
  const preview = (loanId: string, amount: number, mode = 'reduceTerm') =>
    ok<PaymentView>(s.call(a, 'GET', `/Loans/PreviewPayment?LoanId=${loanId}&Amount=${amount}&Mode=${mode}`));
  const restructure = (body: Record<string, unknown>) =>
    ok<ChangeView>(s.call(idem(a), 'POST', '/Loans/RestructureLoan', body));
  const holiday = (body: Record<string, unknown>) =>
    ok<ChangeView>(s.call(idem(a), 'POST', '/Loans/GrantPaymentHoliday', body));
  const balances = (loanId: string) =>
    ok<BalancesView>(s.call(a, 'GET', `/Loans/GetLoanBalances?LoanId=${loanId}`));
  const schedule = async (loanId: string) =>
    (await ok<{ items: InstalmentView[] }>(s.call(a, 'GET', `/Loans/GetLoanSchedule?LoanId=${loanId}`)))
      .items;
  /** A loan on the 24% product, two months old, with an instalment past due, restructured to 18%. */
  const restructured = async () => {
    const { loan } = await activeLoan(s, a, 'bank-a', { disbursedOn: monthsAgo(2, 1) });
    await agrees(loan.id);
    const r = await restructure({ loanId: loan.id, annualRate: '18' });
    expect(r.carriedInterest).toBeGreaterThan(0);
    expect((await balances(loan.id)).interestReceivable).toBe(r.carriedInterest);
    // The first new instalment bills it, on top of its own period's interest.
    expect(r.schedule.find((x) => x.dueDate > today())?.interest).toBeGreaterThan(r.carriedInterest);
    await agrees(loan.id);
    return { loanId: loan.id, carried: r.carriedInterest };
  };

  it('a payoff after a restructuring owes the interest it carried: the loan closes for what it owes', async () => {
    const { loanId, carried } = await restructured();
    const before = await balances(loanId);
    const p = await preview(loanId, 5_000_000);
    expect(debtsOf(p).currentInterest).toBe(carried);
    expect(p.loanStatus).toBe('closed');
    expect(5_000_000 - p.overpayment).toBe(before.totalOutstanding);
    await agrees(loanId);

    const paid = await ok(pay(loanId, { amount: before.totalOutstanding, mode: 'reduceTerm' }));
    expect([paid.loanStatus, paid.overpayment, partsOf(paid).currentInterest]).toEqual([
      'closed',
      0,
      carried,
    ]);
    expect(paid.balances).toMatchObject({ interestReceivable: 0, interestAdvance: 0, totalOutstanding: 0 });
    // Nothing accrued was taken back from income at closing: the borrower paid all of it.
    const closing = lastOf((await ledgerOf(s, loanId)).filter((t) => t.kind === 'repayment'));
    expect(closing.lines.filter((l) => l.account === 'interest_income')).toEqual([]);
    await agrees(loanId);
  });

  it('a partial prepayment after a restructuring pays the carried interest first, then principal', async () => {
    const { loanId, carried } = await restructured();
    const p = await ok(pay(loanId, { amount: 200_000, mode: 'reduceInstalment' }));
    expect(partsOf(p)).toMatchObject({ currentInterest: carried, currentPrincipal: 200_000 - carried });
    expect([p.scheduleChanged, p.balances.interestReceivable]).toEqual([true, 0]);
    const rows = (await schedule(loanId)).filter((r) => r.dueDate > today());
    expect(sum(rows.map((r) => r.principal))).toBe(1_000_000 - (200_000 - carried));
    await agrees(loanId);
  });

  it('a holiday the day of a restructuring carries the interest the restructuring carried', async () => {
    const { loanId, carried } = await restructured();
    const h = await holiday({ loanId, periods: 2 });
    expect(h.carriedInterest).toBe(carried);
    expect((await balances(loanId)).interestReceivable).toBe(carried);
    await agrees(loanId);
    // And a payoff still owes it.
    expect(debtsOf(await preview(loanId, 5_000_000)).currentInterest).toBe(carried);
  });

  it('a payoff after a holiday owes the interest the holiday deferred', async () => {
    const { loan } = await activeLoan(s, a, 'bank-a', {
      product: { dayCount: 'ACT/365F' },
      disbursedOn: dayFromToday(-10),
    });
    const h = await holiday({ loanId: loan.id, periods: 1 });
    // 1 000 000 x 24% x 10/365 = 6 575, due with the first instalment after the holiday.
    expect(h.carriedInterest).toBe(6_575);
    await agrees(loan.id);
    const p = await preview(loan.id, 5_000_000);
    expect(debtsOf(p).currentInterest).toBe(6_575);
    expect(p.overpayment).toBe(5_000_000 - 1_006_575);
    const paid = await ok(pay(loan.id, { amount: 1_006_575, mode: 'reduceTerm' }));
    expect([paid.loanStatus, paid.overpayment]).toEqual(['closed', 0]);
    await agrees(loan.id);
  });

  it('a partial early repayment after a holiday pays the deferred interest, billed by the instalment after it', async () => {
    const { loan } = await activeLoan(s, a, 'bank-a', {
      product: { dayCount: 'ACT/365F', scheduleType: 'differentiated' },
      disbursedOn: dayFromToday(-10),
    });
    const h = await holiday({ loanId: loan.id, periods: 3 });
    await agrees(loan.id);
    // Too little to prepay anything: the interest is paid on the instalment that bills it (the 4th).
    const small = await ok(pay(loan.id, { amount: 2_000, mode: 'reduceTerm' }));
    expect([partsOf(small).currentInterest, small.scheduleChanged]).toEqual([2_000, false]);
    const rows = await schedule(loan.id);
    expect(rows.map((r) => r.paidInterest)).toEqual(rows.map((r) => (r.id === h.schedule[3].id ? 2_000 : 0)));
    await agrees(loan.id);
    const rest = await ok(pay(loan.id, { amount: 100_000, mode: 'reduceTerm' }));
    expect(partsOf(rest).currentInterest).toBe(h.carriedInterest - 2_000);
    await agrees(loan.id);
  });

  it('keeps the identity through regular payments, a holiday, a restructuring and a prepayment', async () => {
    const { loan } = await activeLoan(s, a, 'bank-a', {
      product: { dayCount: 'ACT/365F', scheduleType: 'differentiated' },
      disbursedOn: monthsAgo(3, 3),
    });
    await agrees(loan.id);
    await ok(pay(loan.id, { amount: 150_000 }));
    await agrees(loan.id);
    await holiday({ loanId: loan.id, periods: 2 });
    await agrees(loan.id);
    await restructure({ loanId: loan.id, termCount: 10, includeOverdue: false });
    await agrees(loan.id);
    await ok(pay(loan.id, { amount: 300_000, mode: 'reduceInstalment' }));
    await agrees(loan.id);
    await holiday({ loanId: loan.id, periods: 2 });
    await agrees(loan.id);
    const b = await balances(loan.id);
    const payoff = await ok(pay(loan.id, { amount: b.totalOutstanding, mode: 'reduceTerm' }));
    expect([payoff.loanStatus, payoff.overpayment]).toEqual(['closed', 0]);
    await agrees(loan.id);
  });

  it('takes an early repayment only after the last day accrued: it changes the schedule from its date', async () => {
    const { loan } = await activeLoan(s, a, 'bank-a', { disbursedOn: dayFromToday(-10) });
    await ok(s.call(a, 'POST', '/Loans/RunAccruals', { loanId: loan.id }));
    const yesterday = dayFromToday(-1);
    const early = await pay(loan.id, { amount: 100_000, mode: 'reduceTerm', valueDate: yesterday });
    expect([early.status, early.body.value.reason, early.body.value]).toEqual([
      422,
      'LOAN_VALUE_DATE_OUT_OF_RANGE',
      expect.objectContaining({ earliest: today(), latest: today() }),
    ]);
    // A regular payment of that day is still taken (it changes no schedule), and an early one today.
    await ok(pay(loan.id, { amount: 1_000, valueDate: yesterday }));
    await ok(pay(loan.id, { amount: 100_000, mode: 'reduceTerm' }));
    await agrees(loan.id);
  });
});
