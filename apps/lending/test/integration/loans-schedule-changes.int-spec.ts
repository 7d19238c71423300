import { randomUUID } from 'node:crypto';
import { startLending, type LendingFixture } from './lending-fixture';
import {
  countTypes,
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
  transactionsOf,
  unbalancedTransactions,
  type BalancesView,
  type InstalmentView,
  type LoanView,
} from './loans-helpers';

const today = () => new Date().toISOString().slice(0, 10);
const sum = (xs: number[]) => xs.reduce((x, y) => x + y, 0);

interface ChangeView {
  transactionId: string;
  version: number;
  effectiveDate: string;
  previousMaturityDate: string;
  maturityDate: string;
  principal: number;
  carriedInterest: number;
  reclassifiedPrincipal: number;
  reclassifiedInterest: number;
  loan: LoanView & { annualRate: string; scheduleType: string };
  schedule: InstalmentView[];
}

interface VersionView {
  version: number;
  inForce: boolean;
  transactionId: string;
  kind: string;
  kindName: string;
  valueDate: string;
  instalments: number;
  maturityDate: string | null;
  principal: number;
}

/**
 * Schedule changes (docs/lending/loans.md, "Schedule changes") on real PostgreSQL: payment holidays
 * and restructurings regenerate what remains, keep the old schedule as a version, carry accrued interest
 * instead of losing or capitalising it, fold past-due amounts back from the overdue accounts, post and
 * announce once per Idempotency-Key, and keep the ledger balanced.
 */
describe('lending loan schedule changes (real PostgreSQL)', () => {
  let s: LendingFixture;
  let a: Record<string, string>;

  beforeAll(async () => {
    s = await startLending('lending_schedule_changes');
    a = await s.organization('bank-a');
  }, 60_000);

  afterAll(async () => {
    await s?.close();
  });

  afterEach(async () => {
    expect(await unbalancedTransactions(s)).toEqual([]);
  });

  const holiday = (body: Record<string, unknown>, key?: string, headers = a, lang = 'en') =>
    s.call<ChangeView>(idem(headers, key), 'POST', '/Loans/GrantPaymentHoliday', body, lang);
  const restructure = (body: Record<string, unknown>, key?: string, headers = a, lang = 'en') =>
    s.call<ChangeView>(idem(headers, key), 'POST', '/Loans/RestructureLoan', body, lang);
  const balances = (loanId: string) =>
    ok<BalancesView>(s.call(a, 'GET', `/Loans/GetLoanBalances?LoanId=${loanId}`));
  const versions = async (loanId: string) =>
    (await ok<{ items: VersionView[] }>(s.call(a, 'GET', `/Loans/GetLoanScheduleVersions?LoanId=${loanId}`)))
      .items;
  const scheduleOf = async (loanId: string, version?: number) =>
    (
      await ok<{ items: InstalmentView[] }>(
        s.call(a, 'GET', `/Loans/GetLoanSchedule?LoanId=${loanId}${version ? `&Version=${version}` : ''}`),
      )
    ).items;

  it('grants a payment holiday: two instalments pay nothing, the rest move on, interest is due after it', async () => {
    const { loan, schedule: old } = await activeLoan(s, a, 'bank-a');
    const key = randomUUID();
    const body = { loanId: loan.id, periods: 2, reason: 'Hospital stay' };
    const first = await holiday(body, key);
    expect(first.status).toBe(200);
    const h = first.body.value;
    expect(h).toMatchObject({ version: 2, principal: 1_000_000, carriedInterest: 0, effectiveDate: today() });
    const rows = h.schedule;
    expect(rows).toHaveLength(14);
    expect(rows.slice(0, 2).map((r) => r.total)).toEqual([0, 0]);
    // The old instalments 1..12 again from 3 on, the first of them with the holiday's 2 x 20 000 interest.
    expect(rows.slice(2).map((r) => r.principal)).toEqual(old.map((r) => r.principal));
    expect(rows[2].interest).toBe(old[0].interest + 40_000);
    expect(rows.slice(3).map((r) => r.interest)).toEqual(old.slice(1).map((r) => r.interest));
    expect(sum(rows.map((r) => r.principal))).toBe(1_000_000);
    expect(lastOf(rows).balanceAfter).toBe(0);
    expect(rows.map((r) => r.number)).toEqual(rows.map((_, i) => i + 1));
    expect([h.previousMaturityDate, h.maturityDate]).toEqual([lastOf(old).dueDate, lastOf(rows).dueDate]);

    // Once per Idempotency-Key: the same request answers the same, another body with the key is refused.
    const replay = await holiday(body, key);
    expect([replay.status, replay.body.value]).toEqual([200, h]);
    const reused = await holiday({ ...body, periods: 3 }, key);
    expect([reused.status, reused.body.value.reason]).toEqual([422, 'IDEMPOTENCY_KEY_REUSED']);
    expect(await transactionsOf(s, loan.id, 'payment_holiday')).toBe(1);
    const [t] = (await ledgerOf(s, loan.id)).filter((x) => x.kind === 'payment_holiday');
    expect(t.lines).toEqual([]);

    const events = await eventsOf(s, loan.id);
    expect(countTypes(events)).toMatchObject({
      'bureau.payment-holiday-granted': 1,
      'accounting.payment-holiday-granted': 1,
    });
    expect(must(events.find((e) => e.type === 'bureau.payment-holiday-granted')).payload).toMatchObject({
      holidayId: h.transactionId,
      basis: 'lender-programme',
      mode: 'full-deferral',
      startDate: today(),
      endDate: rows[1].dueDate,
    });
    expect(must(events.find((e) => e.type === 'accounting.payment-holiday-granted')).payload).toMatchObject({
      deferredInterest: 0,
      postings: [],
    });
    expect(await eventsAgreeWithLedger(s, loan.id)).toEqual([]);

    // The old schedule stays: version 1 with its 12 rows, no longer in force.
    const history = await versions(loan.id);
    expect(history.map((v) => [v.version, v.kind, v.instalments, v.inForce, v.principal])).toEqual([
      [1, 'disbursement', 12, false, 1_000_000],
      [2, 'payment_holiday', 14, true, 1_000_000],
    ]);
    expect(history[1]).toMatchObject({ transactionId: h.transactionId, kindName: 'Payment holiday' });
    const v1 = await scheduleOf(loan.id, 1);
    expect(v1.map((r) => [r.id, r.status])).toEqual(old.map((r) => [r.id, 'superseded']));
    expect((await scheduleOf(loan.id, 2)).map((r) => r.id)).toEqual(rows.map((r) => r.id));
    expect((await scheduleOf(loan.id)).map((r) => r.id)).toEqual(rows.map((r) => r.id));
    const unknown = await s.call(a, 'GET', `/Loans/GetLoanSchedule?LoanId=${loan.id}&Version=9`);
    expect([unknown.status, unknown.body.value.reason]).toEqual([404, 'LOAN_SCHEDULE_VERSION_NOT_FOUND']);
  });

  it('carries the interest accrued in the current period to the first instalment after the holiday', async () => {
    const { loan } = await activeLoan(s, a, 'bank-a', {
      product: { dayCount: 'ACT/365F' },
      disbursedOn: dayFromToday(-10),
    });
    const h = await ok(holiday({ loanId: loan.id, periods: 1, basis: 'statutory' }));
    // Ten days accrued first: 240 000 x 10 / 365 = 6 575, owed, due with instalment 2 now.
    expect(h.carriedInterest).toBe(6_575);
    expect(await transactionsOf(s, loan.id, 'interest_accrual')).toBe(10);
    expect((await balances(loan.id)).interestReceivable).toBe(6_575);
    expect(h.schedule[0]).toMatchObject({ periodStart: today(), total: 0 });
    expect(h.schedule[1].interest).toBeGreaterThan(6_575 + 20_000);
    expect(sum(h.schedule.map((r) => r.principal))).toBe(1_000_000);
    const granted = (await eventsOf(s, loan.id)).filter((e) => e.type.endsWith('payment-holiday-granted'));
    expect(granted.map((e) => e.payload.basis ?? e.payload.deferredInterest)).toEqual(['statutory', 6_575]);
  });

  it('restructures an overdue loan: a new rate and term, past-due amounts folded back in, reported as a restructuring', async () => {
    const { loan, schedule: old } = await activeLoan(s, a, 'bank-a', { disbursedOn: monthsAgo(2, 1) });
    await ok(s.call(a, 'POST', '/Loans/RunAccruals', { loanId: loan.id }));
    const before = await balances(loan.id);
    const due = old.filter((r) => r.dueDate < today());
    expect(before.overduePrincipal).toBe(sum(due.map((r) => r.principal)));
    const r = await ok(
      restructure({ loanId: loan.id, annualRate: '12', termCount: 24, basis: 'borrower-hardship' }),
    );
    expect(r).toMatchObject({
      version: 2,
      principal: 1_000_000,
      reclassifiedPrincipal: before.overduePrincipal,
      reclassifiedInterest: before.overdueInterest,
      // Past-due interest and what accrued since the last due date: due with the first new instalment.
      carriedInterest: before.overdueInterest + before.interestReceivable,
    });
    expect(r.loan).toMatchObject({ annualRate: '12', scheduleType: 'annuity', daysPastDue: 0 });
    expect(r.schedule).toHaveLength(24);
    expect(r.schedule[0].number).toBe(1);
    expect(r.schedule[0].periodStart).toBe(today());
    expect(sum(r.schedule.map((x) => x.principal))).toBe(1_000_000);
    expect(lastOf(r.schedule).balanceAfter).toBe(0);
    expect(r.schedule[0].interest).toBeGreaterThan(r.carriedInterest);
    const after = await balances(loan.id);
    expect(after).toMatchObject({
      overduePrincipal: 0,
      overdueInterest: 0,
      principalOutstanding: 1_000_000,
      totalOutstanding: before.totalOutstanding,
      balanced: true,
    });
    const [t] = (await ledgerOf(s, loan.id)).filter((x) => x.kind === 'restructuring');
    expect(
      t.lines
        .filter((l) => l.credit > 0)
        .map((l) => l.account)
        .sort(),
    ).toEqual([...due.map(() => 'overdue_interest'), ...due.map(() => 'overdue_principal')].sort());
    const events = await eventsOf(s, loan.id);
    expect(countTypes(events)).toMatchObject({
      'bureau.loan-restructured': 1,
      'accounting.loan-restructured': 1,
    });
    expect(must(events.find((e) => e.type === 'bureau.loan-restructured')).payload).toMatchObject({
      restructuringId: r.transactionId,
      basis: 'borrower-hardship',
      previousMaturityDate: lastOf(old).dueDate,
      maturityDate: r.maturityDate,
      nominalRate: '12',
      capitalisedAmount: 0,
    });
    expect(await eventsAgreeWithLedger(s, loan.id)).toEqual([]);
    expect(
      (await ok<{ transactions: number }>(s.call(a, 'POST', '/Loans/RunAccruals', { loanId: loan.id })))
        .transactions,
    ).toBe(0);

    // Changed terms without a basis are reported as such; shorter, so the maturity moves.
    const again = await ok(restructure({ loanId: loan.id, termCount: 12 }));
    expect(again.schedule).toHaveLength(12);
    expect(sum(again.schedule.map((x) => x.principal))).toBe(1_000_000);
    const changed = (await eventsOf(s, loan.id)).filter((e) => e.type === 'bureau.terms-changed');
    expect(changed.map((e) => [e.payload.reason, e.payload.nominalRate, e.payload.maturityDate])).toEqual([
      ['maturity-change', '12', again.maturityDate],
    ]);
    expect((await versions(loan.id)).map((v) => v.kind)).toEqual([
      'disbursement',
      'restructuring',
      'restructuring',
    ]);
  });

  it('leaves what is past due where it is when asked, and refuses a change that changes nothing', async () => {
    const { loan, schedule: old } = await activeLoan(s, a, 'bank-a', { disbursedOn: monthsAgo(2, 1) });
    await ok(s.call(a, 'POST', '/Loans/RunAccruals', { loanId: loan.id }));
    const before = await balances(loan.id);
    const due = old.filter((r) => r.dueDate < today());
    const r = await ok(
      restructure({ loanId: loan.id, scheduleType: 'differentiated', includeOverdue: false }),
    );
    expect(r.reclassifiedPrincipal).toBe(0);
    expect(sum(r.schedule.filter((x) => x.dueDate > today()).map((x) => x.principal))).toBe(
      1_000_000 - before.overduePrincipal,
    );
    // The overdue instalments stay in force, still overdue; the new ones follow their numbers.
    expect(r.schedule.slice(0, due.length).map((x) => [x.id, x.status])).toEqual(
      due.map((x) => [x.id, 'overdue']),
    );
    expect(r.schedule[due.length].number).toBe(due.length + 1);
    expect((await balances(loan.id)).overduePrincipal).toBe(before.overduePrincipal);
    expect(r.loan.scheduleType).toBe('differentiated');

    const fresh = await activeLoan(s, a, 'bank-a');
    const nothing = await restructure({ loanId: fresh.loan.id, annualRate: '24.0' }, undefined, a, 'ru');
    expect([
      nothing.status,
      nothing.body.value.reason,
      (nothing.body.value as { problem?: string }).problem,
    ]).toEqual([422, 'LOAN_SCHEDULE_CHANGE_INVALID', 'NOTHING_TO_CHANGE']);
    expect(nothing.body.error).toContain('График нельзя изменить');
    const tooHigh = await restructure({ loanId: fresh.loan.id, annualRate: '1000' });
    expect([tooHigh.status, (tooHigh.body.value as { problem?: string }).problem]).toEqual([
      422,
      'RATE_TOO_HIGH',
    ]);
    expect(await transactionsOf(s, fresh.loan.id, 'restructuring')).toBe(0);
  });

  it("keeps a restructuring's term within the product's limits and a holiday within its longest term", async () => {
    // The product lends for 3 to 36 instalments.
    const { loan } = await activeLoan(s, a, 'bank-a');
    for (const termCount of [1900, 37, 2]) {
      const r = await restructure({ loanId: loan.id, termCount }, undefined, a, 'ru');
      expect([termCount, r.status, r.body.value.reason, r.body.value]).toEqual([
        termCount,
        422,
        'LOAN_TERM_OUT_OF_RANGE',
        expect.objectContaining({ min: 3, max: 36 }),
      ]);
      expect(r.body.error).toContain('от 3 до 36');
    }
    const long = await holiday({ loanId: loan.id, periods: 37 }, undefined, a, 'kk');
    expect([long.status, long.body.value.reason, long.body.value]).toEqual([
      422,
      'LOAN_SCHEDULE_CHANGE_INVALID',
      expect.objectContaining({ problem: 'HOLIDAY_TOO_LONG', field: 'periods', max: 36 }),
    ]);
    expect(await transactionsOf(s, loan.id)).toBe(1);
    expect((await ok(restructure({ loanId: loan.id, termCount: 36 }))).schedule).toHaveLength(36);
    expect((await ok(holiday({ loanId: loan.id, periods: 36 }))).schedule).toHaveLength(72);
  });

  it("answers 404 for another organization's loan, 409 before the loan is paid out, 400 without a key", async () => {
    const { loan } = await activeLoan(s, a, 'bank-a');
    const b = await s.organization('bank-b');
    for (const call of [
      () => holiday({ loanId: loan.id, periods: 1 }, undefined, b),
      () => restructure({ loanId: loan.id, termCount: 6 }, undefined, b),
    ]) {
      const r = await call();
      expect([r.status, r.body.value.reason]).toEqual([404, 'LOAN_NOT_FOUND']);
    }
    for (const path of ['GetLoanScheduleVersions', 'GetLoanSchedule']) {
      const r = await s.call(b, 'GET', `/Loans/${path}?LoanId=${loan.id}`);
      expect([path, r.status]).toEqual([path, 404]);
    }
    expect(await transactionsOf(s, loan.id)).toBe(1);
    const created = await createdLoan(s, a, 'bank-a');
    const early = await holiday({ loanId: created.id, periods: 1 });
    expect([early.status, early.body.value.reason]).toEqual([409, 'LOAN_NOT_ACTIVE']);
    const keyless = await s.call(a, 'POST', '/Loans/RestructureLoan', { loanId: loan.id, termCount: 6 });
    expect([keyless.status, keyless.body.value.reason]).toEqual([400, 'IDEMPOTENCY_KEY_MISSING']);
    const tooLong = await holiday({ loanId: loan.id, periods: 121 });
    expect([tooLong.status, tooLong.body.value.reason]).toEqual([400, 'VALIDATION_FAILED']);
  });
});
