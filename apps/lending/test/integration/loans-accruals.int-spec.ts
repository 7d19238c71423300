import { withClient } from '@platform/testing';
import { AccrualsJob } from '../../src/loans/accruals/accruals.job';
import { startLending, type LendingFixture } from './lending-fixture';
import {
  countTypes,
  daysFrom,
  eventsAgreeWithLedger,
  eventsOf,
  lastOf,
  ledgerOf,
  must,
} from './loans-accruals-helpers';
import {
  activeLoan,
  createdLoan,
  dayFromToday,
  idem,
  monthsAgo,
  ok,
  partsOf,
  transactionsOf,
  unbalancedTransactions,
  type BalancesView,
  type InstalmentView,
  type LoanView,
  type PaymentView,
} from './loans-helpers';

const today = () => new Date().toISOString().slice(0, 10);
const sum = (xs: number[]) => xs.reduce((x, y) => x + y, 0);

interface RunView {
  asOf: string;
  loans: number;
  skipped: number;
  failed: number;
  transactions: number;
  interest: number;
  penalties: number;
  principalOverdue: number;
  interestOverdue: number;
  adjustments: number;
}

/** Differentiated, ACT/365F: each period's interest is its day-count interest, to the minor unit. */
const DIFFERENTIATED = { scheduleType: 'differentiated', dayCount: 'ACT/365F' };

/**
 * The daily accruals (docs/lending/loans.md, "Accruals") on real PostgreSQL: interest to the minor
 * unit and once per day, catch-up without rounding drift, overdue moves and days past due, penalties on
 * what is past due only, the period-end true-up of an annuity, accruals before a payment, the closing
 * settlement, several runs at once, and RunAccruals' guards. Expected amounts are worked out by hand
 * (1 000 000.00 minor units at 24%: 240 000 a year, 657.53 a day on ACT/365F).
 */
describe('lending loan accruals (real PostgreSQL)', () => {
  let s: LendingFixture;
  let a: Record<string, string>;

  beforeAll(async () => {
    s = await startLending('lending_loan_accruals');
    a = await s.organization('bank-a');
  }, 60_000);

  afterAll(async () => {
    await s?.close();
  });

  afterEach(async () => {
    expect(await unbalancedTransactions(s)).toEqual([]);
  });

  const run = (body: Record<string, unknown> = {}, headers = a) =>
    s.call<RunView>(headers, 'POST', '/Loans/RunAccruals', body);
  const balances = (loanId: string) =>
    ok<BalancesView>(s.call(a, 'GET', `/Loans/GetLoanBalances?LoanId=${loanId}`));
  const schedule = async (loanId: string) =>
    (await ok<{ items: InstalmentView[] }>(s.call(a, 'GET', `/Loans/GetLoanSchedule?LoanId=${loanId}`)))
      .items;
  const loanOf = (loanId: string) => ok<LoanView>(s.call(a, 'GET', `/Loans/GetLoan?LoanId=${loanId}`));
  const ofKind = async (loanId: string, kind: string) =>
    (await ledgerOf(s, loanId)).filter((t) => t.kind === kind);

  it("posts a day's interest exactly once: a second run posts nothing", async () => {
    const { loan } = await activeLoan(s, a, 'bank-a', {
      product: DIFFERENTIATED,
      disbursedOn: dayFromToday(-1),
    });
    const first = await ok(run({ loanId: loan.id }));
    // 1 000 000 x 24% / 365 = 657.53 -> 658, receivable against income.
    expect(first).toMatchObject({ loans: 1, transactions: 1, interest: 658, penalties: 0, asOf: today() });
    const [t] = await ofKind(loan.id, 'interest_accrual');
    expect(t.valueDate).toBe(dayFromToday(-1));
    expect(t.lines.map((l) => `${l.account}:${l.debit}:${l.credit}`).sort()).toEqual([
      'interest_income:0:658',
      'interest_receivable:658:0',
    ]);
    expect(await balances(loan.id)).toMatchObject({ interestReceivable: 658, balanced: true });
    const events = await eventsOf(s, loan.id);
    const accrued = events.filter((e) => e.type === 'accounting.interest-accrued');
    expect(accrued.map((e) => e.payload)).toEqual([
      expect.objectContaining({
        operationId: t.id,
        accrualDate: dayFromToday(-1),
        amount: 658,
        principalBase: 1_000_000,
        nominalRate: '24',
        dayCount: 'ACT/365F',
      }),
    ]);

    const again = await ok(run({ loanId: loan.id }));
    expect(again).toMatchObject({ loans: 0, transactions: 0, interest: 0 });
    const alsoTheWholeOrganization = await ok(run());
    expect(alsoTheWholeOrganization.transactions).toBe(0);
    expect(await transactionsOf(s, loan.id, 'interest_accrual')).toBe(1);
    expect((await eventsOf(s, loan.id)).length).toBe(events.length);
    expect(await eventsAgreeWithLedger(s, loan.id)).toEqual([]);
  });

  it('catches up missed days in two runs to exactly the interest of the span, without rounding drift', async () => {
    const disbursedOn = dayFromToday(-20);
    const { loan } = await activeLoan(s, a, 'bank-a', { product: DIFFERENTIATED, disbursedOn });
    const part = await ok(run({ loanId: loan.id, asOf: dayFromToday(-13) }));
    // 7 days: 240 000 x 7 / 365 = 4 602.74 -> 4 603.
    expect([part.transactions, part.interest]).toEqual([7, 4_603]);
    const rest = await ok(run({ loanId: loan.id }));
    // 20 days: 240 000 x 20 / 365 = 13 150.68 -> 13 151, where rounding each day would give 658 x 20 = 13 160.
    expect(part.interest + rest.interest).toBe(13_151);
    const days = await ofKind(loan.id, 'interest_accrual');
    expect(days.map((t) => t.valueDate)).toEqual(Array.from({ length: 20 }, (_, i) => dayFromToday(-20 + i)));
    expect(new Set(days.map((t) => t.amount))).toEqual(new Set([657, 658]));
    expect(sum(days.map((t) => t.amount))).toBe(13_151);
    // The exact cumulative amount is kept with each day: the last is the span's exact interest.
    const kept = await withClient(s.db.url, (c) =>
      c.query<{ cumulative: string }>(
        `SELECT cumulative::text FROM lending.loan_accruals WHERE loan_id = $1 AND kind = 'interest'
          ORDER BY accrual_date DESC LIMIT 1`,
        [loan.id],
      ),
    );
    expect(Number(kept.rows[0].cumulative)).toBeCloseTo((240_000 * 20) / 365, 9);
    expect((await balances(loan.id)).interestReceivable).toBe(13_151);
  });

  it('moves unpaid instalments to overdue the day after they fall due, reports the overdue once and counts its days', async () => {
    const disbursedOn = monthsAgo(2, 1);
    const { loan } = await activeLoan(s, a, 'bank-a', { disbursedOn });
    const rows = await schedule(loan.id);
    const due = rows.filter((r) => r.dueDate < today());
    expect(due.length).toBeGreaterThanOrEqual(1);
    const r = await ok(run({ loanId: loan.id }));
    expect(r).toMatchObject({
      principalOverdue: sum(due.map((x) => x.principal)),
      interestOverdue: sum(due.map((x) => x.interest)),
      // An annuity on 30/360 from the 1st: each period's day count is exactly a twelfth of a year.
      adjustments: 0,
    });
    const b = await balances(loan.id);
    expect(b).toMatchObject({
      overduePrincipal: sum(due.map((x) => x.principal)),
      overdueInterest: sum(due.map((x) => x.interest)),
      principalOutstanding: 1_000_000,
    });
    // The interest of every period that ended was accrued, to the minor unit of what it bills.
    const accrued = (await ofKind(loan.id, 'interest_accrual')).filter(
      (t) => t.valueDate < lastOf(due).dueDate,
    );
    expect(sum(accrued.map((t) => t.amount))).toBe(sum(due.map((x) => x.interest)));
    const moves = await ofKind(loan.id, 'overdue_transfer');
    expect(moves.map((t) => t.valueDate)).toEqual(due.map((x) => dayFromDate(x.dueDate, 1)));
    const events = await eventsOf(s, loan.id);
    expect(countTypes(events)).toMatchObject({
      'accounting.principal-overdue': due.length,
      'accounting.interest-overdue': due.length,
      'bureau.overdue-started': 1,
    });
    expect(events.some((e) => e.type === 'accounting.interest-accrual-adjusted')).toBe(false);
    const started = must(events.find((e) => e.type === 'bureau.overdue-started')).payload;
    expect(started).toMatchObject({
      eventDate: dayFromDate(due[0].dueDate, 1),
      overdueSince: due[0].dueDate,
      overdueAmount: due[0].total,
    });
    expect((await loanOf(loan.id)).daysPastDue).toBe(daysFrom(due[0].dueDate, today()));
    expect(await eventsAgreeWithLedger(s, loan.id)).toEqual([]);

    // Paying what is past due pays it off the overdue accounts and ends the overdue.
    const p = await ok<PaymentView>(
      s.call(idem(a), 'POST', '/Loans/MakePayment', {
        loanId: loan.id,
        amount: sum(due.map((x) => x.total)),
      }),
    );
    expect(partsOf(p)).toMatchObject({
      overdueInterest: sum(due.map((x) => x.interest)),
      overduePrincipal: sum(due.map((x) => x.principal)),
    });
    expect(p.balances).toMatchObject({ overduePrincipal: 0, overdueInterest: 0 });
    const [payment] = await ofKind(loan.id, 'repayment');
    expect(payment.lines.filter((l) => l.credit > 0).map((l) => l.account)).toEqual(
      expect.arrayContaining(['overdue_interest', 'overdue_principal']),
    );
    expect((await loanOf(loan.id)).daysPastDue).toBe(0);
    const after = countTypes(await eventsOf(s, loan.id));
    expect(after['bureau.overdue-repaid']).toBe(1);
    expect((await ok(run({ loanId: loan.id }))).transactions).toBe(0);
    expect(await eventsAgreeWithLedger(s, loan.id)).toEqual([]);
  });

  it('accrues penalties only on what is past due, after the grace days, and none on a loan that is not overdue', async () => {
    const product = { ...DIFFERENTIATED, penaltyAnnualRate: '36.5', penaltyGraceDays: 3 };
    const { loan, schedule: rows } = await activeLoan(s, a, 'bank-a', {
      product,
      disbursedOn: dayFromToday(-40),
      firstDueDate: dayFromToday(-10),
    });
    // Instalment 1: 83 333 principal and 240 000 x 30 / 365 = 19 726 interest, due 10 days ago.
    expect([rows[0].principal, rows[0].interest]).toEqual([83_333, 19_726]);
    const r = await ok(run({ loanId: loan.id }));
    // 1, 2, 3 days past due are grace; days 4 to 9 (6 days) at 36.5% on 103 059: 103.059 a day -> 618.
    expect(r.penalties).toBe(618);
    const penalties = await ofKind(loan.id, 'penalty_accrual');
    expect(penalties.map((t) => [t.valueDate, t.amount])).toEqual(
      [-6, -5, -4, -3, -2, -1].map((d) => [dayFromToday(d), 103]),
    );
    const events = (await eventsOf(s, loan.id)).filter((e) => e.type === 'accounting.penalty-accrued');
    expect(events.map((e) => [e.payload.daysPastDue, e.payload.overdueBase, e.payload.penaltyRate])).toEqual(
      [4, 5, 6, 7, 8, 9].map((d) => [d, 103_059, '36.5']),
    );
    expect(await balances(loan.id)).toMatchObject({ penaltyReceivable: 618, overduePrincipal: 83_333 });
    expect((await loanOf(loan.id)).daysPastDue).toBe(10);
    expect(await eventsAgreeWithLedger(s, loan.id)).toEqual([]);

    const current = await activeLoan(s, a, 'bank-a', { product, disbursedOn: dayFromToday(-20) });
    const none = await ok(run({ loanId: current.loan.id }));
    expect([none.penalties, none.transactions]).toEqual([0, 20]);
    expect((await balances(current.loan.id)).penaltyReceivable).toBe(0);
  });

  it("trues an annuity's day-count accruals up to the interest its instalment bills at the due date", async () => {
    const disbursedOn = monthsAgo(2, 15);
    const { loan, schedule: rows } = await activeLoan(s, a, 'bank-a', {
      product: { dayCount: 'ACT/365F' },
      disbursedOn,
    });
    const days = daysFrom(rows[0].periodStart, rows[0].dueDate);
    // A regular annuity period bills 1 000 000 x 2% = 20 000 whatever its length; it accrued 240 000 x days / 365.
    expect(rows[0].interest).toBe(20_000);
    const accruedByDays = Math.round((240_000 * days) / 365);
    await ok(run({ loanId: loan.id }));
    const adjustments = (await ofKind(loan.id, 'interest_accrual')).filter((t) => t.details.adjustment);
    expect(adjustments[0]).toMatchObject({
      valueDate: rows[0].dueDate,
      amount: Math.abs(20_000 - accruedByDays),
      details: expect.objectContaining({ billed: 20_000, accrued: accruedByDays, instalmentNumber: 1 }),
    });
    const events = (await eventsOf(s, loan.id)).filter(
      (e) => e.type === 'accounting.interest-accrual-adjusted',
    );
    expect(events[0].payload).toMatchObject({
      direction: 20_000 > accruedByDays ? 'increase' : 'decrease',
      amount: Math.abs(20_000 - accruedByDays),
      periodFrom: rows[0].periodStart,
      periodTo: dayFromDate(rows[0].dueDate, -1),
    });
    // What the period accrued, adjustment included, is what instalment 1 bills: now on overdue interest.
    const b = await balances(loan.id);
    expect(b.overdueInterest).toBe(sum(rows.filter((x) => x.dueDate < today()).map((x) => x.interest)));
    expect(await eventsAgreeWithLedger(s, loan.id)).toEqual([]);
  });

  it('brings the accruals up to the value date before a payment, and a preview leaves them unposted', async () => {
    const { loan } = await activeLoan(s, a, 'bank-a', {
      product: { dayCount: 'ACT/365F' },
      disbursedOn: dayFromToday(-10),
    });
    const preview = await ok<PaymentView>(
      s.call(a, 'GET', `/Loans/PreviewPayment?LoanId=${loan.id}&Amount=50000`),
    );
    expect(await transactionsOf(s, loan.id)).toBe(1);
    expect(await eventsOf(s, loan.id)).toHaveLength(3);
    const p = await ok<PaymentView>(
      s.call(idem(a), 'POST', '/Loans/MakePayment', { loanId: loan.id, amount: 50_000 }),
    );
    expect({ ...preview, transactionId: p.transactionId }).toEqual(p);
    const ledger = await ledgerOf(s, loan.id);
    expect(ledger.map((t) => t.kind)).toEqual([
      'disbursement',
      ...Array<string>(10).fill('interest_accrual'),
      'repayment',
    ]);
    // 10 days accrued (240 000 x 10 / 365 = 6 575) are paid from the receivable; the rest is paid ahead.
    const credits = Object.fromEntries(
      lastOf(ledger)
        .lines.filter((l) => l.credit > 0)
        .map((l) => [l.account, l.credit]),
    );
    expect(credits).toEqual({
      interest_receivable: 6_575,
      interest_advance: 20_000 - 6_575,
      loan_principal: 30_000,
    });
    expect(p.balances).toMatchObject({ interestReceivable: 0, interestAdvance: 13_425 });
  });

  it('settles the interest accounts when a payment closes the loan, and its reversal undoes that too', async () => {
    const l = await createdLoan(s, a, 'bank-a', { minTerm: 1 }, { termCount: 1 });
    const d = await ok<{ schedule: InstalmentView[] }>(
      s.call(idem(a), 'POST', '/Loans/DisburseLoan', { loanId: l.id }),
    );
    const [only] = d.schedule;
    const p = await ok<PaymentView>(
      s.call(idem(a), 'POST', '/Loans/MakePayment', { loanId: l.id, amount: only.total }),
    );
    expect(p.loanStatus).toBe('closed');
    // Paid on the day it was lent: the instalment's interest was all paid ahead; closing earns it.
    expect(p.balances).toMatchObject({ interestAdvance: 0, interestReceivable: 0, totalOutstanding: 0 });
    const income = (b: BalancesView) => must(b.accounts.find((x) => x.account === 'interest_income')).balance;
    expect(income(p.balances)).toBe(only.interest);
    const adjusted = (await eventsOf(s, l.id)).filter(
      (e) => e.type === 'accounting.interest-accrual-adjusted',
    );
    expect(adjusted.map((e) => [e.payload.direction, e.payload.amount, e.payload.operationId])).toEqual([
      ['increase', only.interest, p.transactionId],
    ]);
    const r = await ok<{ loanStatus: string; balances: BalancesView }>(
      s.call(idem(a), 'POST', '/Loans/ReversePayment', { loanId: l.id, transactionId: p.transactionId }),
    );
    expect(r.loanStatus).toBe('active');
    expect(r.balances).toMatchObject({ interestAdvance: 0, interestReceivable: 0 });
    expect(income(r.balances)).toBe(0);
    expect(await eventsAgreeWithLedger(s, l.id)).toEqual([]);
  });

  it('reverses a payment the accruals after it do not stand on, and refuses one they do', async () => {
    const { loan } = await activeLoan(s, a, 'bank-a', {
      product: { dayCount: 'ACT/365F' },
      disbursedOn: dayFromToday(-20),
    });
    const p = await ok<PaymentView>(
      s.call(idem(a), 'POST', '/Loans/MakePayment', {
        loanId: loan.id,
        amount: 50_000,
        valueDate: dayFromToday(-5),
      }),
    );
    // 15 days accrued before it (240 000 x 15 / 365 = 9 863); the rest of the 20 000 was paid ahead.
    expect(p.balances).toMatchObject({ interestReceivable: 0, interestAdvance: 20_000 - 9_863 });
    await ok(run({ loanId: loan.id }));
    // Five more days (240 000 x 20 / 365 = 13 151 in all) came out of what was paid ahead.
    expect(await balances(loan.id)).toMatchObject({
      interestReceivable: 0,
      interestAdvance: 20_000 - 13_151,
    });
    const r = await ok<{ transactionId: string; balances: BalancesView }>(
      s.call(idem(a), 'POST', '/Loans/ReversePayment', { loanId: loan.id, transactionId: p.transactionId }),
    );
    // Undone: the 13 151 accrued is owed again, nothing is paid ahead, the principal is back.
    expect(r.balances).toMatchObject({
      interestReceivable: 13_151,
      interestAdvance: 0,
      principalOutstanding: 1_000_000,
      balanced: true,
    });
    const [reversal] = (await ledgerOf(s, loan.id)).filter((t) => t.kind === 'reversal');
    expect(reversal.details.interestReclassified).toBe(13_151 - 9_863);
    expect(await eventsAgreeWithLedger(s, loan.id)).toEqual([]);
    // Nothing may be dated before the last day accrued, the reversal's own date notwithstanding.
    const back = await s.call(idem(a), 'POST', '/Loans/MakePayment', {
      loanId: loan.id,
      amount: 1_000,
      valueDate: dayFromToday(-3),
    });
    expect([back.status, back.body.value.reason]).toEqual([422, 'LOAN_VALUE_DATE_OUT_OF_RANGE']);

    // With penalties, days past due after a payment of an overdue instalment stand on that payment.
    const withPenalty = await activeLoan(s, a, 'bank-a', {
      product: { ...DIFFERENTIATED, penaltyAnnualRate: '36.5' },
      disbursedOn: dayFromToday(-40),
      firstDueDate: dayFromToday(-10),
    });
    const overdue = await ok<PaymentView>(
      s.call(idem(a), 'POST', '/Loans/MakePayment', {
        loanId: withPenalty.loan.id,
        amount: 50_000,
        valueDate: dayFromToday(-5),
      }),
    );
    await ok(run({ loanId: withPenalty.loan.id }));
    const refused = await s.call(idem(a), 'POST', '/Loans/ReversePayment', {
      loanId: withPenalty.loan.id,
      transactionId: overdue.transactionId,
    });
    expect([refused.status, refused.body.value.reason]).toEqual([409, 'LOAN_TRANSACTION_NOT_LATEST']);
  });

  it('writes off what accrued and fell overdue until today', async () => {
    const product = { ...DIFFERENTIATED, penaltyAnnualRate: '36.5' };
    const { loan } = await activeLoan(s, a, 'bank-a', {
      product,
      disbursedOn: dayFromToday(-40),
      firstDueDate: dayFromToday(-10),
    });
    const w = await ok<{ amount: number; transactionId: string }>(
      s.call(idem(a), 'POST', '/Loans/WriteOffLoan', { loanId: loan.id }),
    );
    const b = await balances(loan.id);
    expect(b).toMatchObject({
      totalOutstanding: 0,
      overduePrincipal: 0,
      overdueInterest: 0,
      penaltyReceivable: 0,
    });
    const losses = must(b.accounts.find((x) => x.account === 'credit_losses')).balance;
    expect(w.amount).toBe(losses);
    // Principal; interest of instalment 1 (19 726) and of 10 days of instalment 2's period on its
    // 916 667 (220 000.08 x 10 / 365 = 6 027); 9 days of penalties on 103 059 at 36.5% (927.53 -> 928).
    expect(w.amount).toBe(1_000_000 + 19_726 + 6_027 + 928);
    const [event] = (await eventsOf(s, loan.id)).filter((e) => e.type === 'accounting.loan-written-off');
    expect(event.payload.writtenOff).toEqual({
      fees: 0,
      penalties: 928,
      overdueInterest: 19_726,
      overduePrincipal: 83_333,
      currentInterest: 6_027,
      currentPrincipal: 1_000_000 - 83_333,
    });
    expect(await eventsAgreeWithLedger(s, loan.id)).toEqual([]);
  });

  it('shares the book between runs at once: each day is posted once whoever runs it', async () => {
    const c = await s.organization('bank-c');
    const loans = [];
    for (const days of [5, 8, 12])
      loans.push(
        (await activeLoan(s, c, 'bank-c', { product: DIFFERENTIATED, disbursedOn: dayFromToday(-days) }))
          .loan,
      );
    const runs = await Promise.all([run({}, c), run({}, c), run({}, c)]);
    for (const r of runs) expect(r.status).toBe(200);
    const total = sum(runs.map((r) => r.body.value.transactions));
    expect(total).toBe(5 + 8 + 12);
    for (const [i, days] of [5, 8, 12].entries())
      expect(await transactionsOf(s, loans[i].id, 'interest_accrual')).toBe(days);
    const duplicates = await withClient(s.db.url, (x) =>
      x.query(
        `SELECT loan_id, accrual_date, kind FROM lending.loan_accruals WHERE organization_id = 'bank-c'
          GROUP BY 1, 2, 3 HAVING count(*) > 1`,
      ),
    );
    expect(duplicates.rows).toEqual([]);
  });

  it('runs as the scheduled job over every organization', async () => {
    const d = await s.organization('bank-d');
    const { loan } = await activeLoan(s, d, 'bank-d', {
      product: DIFFERENTIATED,
      disbursedOn: dayFromToday(-5),
    });
    await s.app.get(AccrualsJob).run();
    expect(await transactionsOf(s, loan.id, 'interest_accrual')).toBe(5);
    await s.app.get(AccrualsJob).run();
    expect(await transactionsOf(s, loan.id, 'interest_accrual')).toBe(5);
  });

  it("refuses a date after today, another organization's loan, and runs nothing for a loan not yet paid out", async () => {
    const future = await run({ asOf: dayFromToday(1) }, a);
    expect([future.status, future.body.value.reason]).toEqual([422, 'LOAN_VALUE_DATE_OUT_OF_RANGE']);
    const { loan } = await activeLoan(s, a, 'bank-a', { disbursedOn: dayFromToday(-3) });
    const e = await s.organization('bank-e');
    const foreign = await run({ loanId: loan.id }, e);
    expect([foreign.status, foreign.body.value.reason]).toEqual([404, 'LOAN_NOT_FOUND']);
    expect(await transactionsOf(s, loan.id, 'interest_accrual')).toBe(0);
    const created = await createdLoan(s, a, 'bank-a');
    expect((await ok(run({ loanId: created.id }))).transactions).toBe(0);
    const malformed = await run({ asOf: '2026-02-30' }, a);
    expect([malformed.status, malformed.body.value.reason]).toEqual([400, 'VALIDATION_FAILED']);
  });

  it('answers 403 where the route is switched off', async () => {
    const off = await startLending('lending_accruals_off', { LENDING_ACCRUALS_ROUTE: 'off' });
    try {
      const k = await off.organization('bank-a');
      const r = await off.call(k, 'POST', '/Loans/RunAccruals', {}, 'ru');
      expect([r.status, r.body.value.reason]).toEqual([403, 'LOAN_ACCRUALS_ROUTE_DISABLED']);
      expect(r.body.error).toContain('плановое задание');
    } finally {
      await off.close();
    }
  }, 60_000);
});

/** `date` plus `days`. */
function dayFromDate(date: string, days: number): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
}
