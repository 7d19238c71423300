import { withClient } from '@platform/testing';
import { startLending, type Env, type LendingFixture } from './lending-fixture';
import {
  activeLoan,
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
const sum = (xs: number[]) => xs.reduce((s, x) => s + x, 0);

describe('lending loans: payments, allocation, early repayment, reversal (real PostgreSQL)', () => {
  let s: LendingFixture;
  let a: Record<string, string>;

  beforeAll(async () => {
    s = await startLending('lending_loan_payments');
    a = await s.organization('bank-a');
  }, 60_000);

  afterAll(async () => {
    await s?.close();
  });

  afterEach(async () => {
    // The ledger balances after every operation of every test.
    expect(await unbalancedTransactions(s)).toEqual([]);
  });

  const pay = (loanId: string, body: Record<string, unknown>, key?: string, lang = 'en') =>
    s.call<PaymentView>(idem(a, key), 'POST', '/Loans/MakePayment', { loanId, ...body }, lang);
  const schedule = async (loanId: string) =>
    (await ok<{ items: InstalmentView[] }>(s.call(a, 'GET', `/Loans/GetLoanSchedule?LoanId=${loanId}`)))
      .items;
  const balances = (loanId: string) =>
    ok<BalancesView>(s.call(a, 'GET', `/Loans/GetLoanBalances?LoanId=${loanId}`));
  const loan = (loanId: string) => ok<LoanView>(s.call(a, 'GET', `/Loans/GetLoan?LoanId=${loanId}`));

  it('pays the current instalment on a regular payment: interest then principal, the rest is an overpayment', async () => {
    const { loan: l, schedule: rows } = await activeLoan(s, a, 'bank-a');
    // Excel PMT(2%, 12, -1 000 000) = 94 559.60 -> 94 560: interest 20 000, principal 74 560.
    expect([rows[0].total, rows[0].interest, rows[0].principal]).toEqual([94_560, 20_000, 74_560]);
    const p = await ok(pay(l.id, { amount: 100_000 }, undefined, 'ru'));
    expect(partsOf(p)).toEqual({
      fees: 0,
      penalties: 0,
      overdueInterest: 0,
      overduePrincipal: 0,
      currentInterest: 20_000,
      currentPrincipal: 74_560,
    });
    expect(p.overpayment).toBe(5_440);
    expect(p.rule).toBe(
      'allocation.order:fees>penalties>overdueInterest>overduePrincipal>currentInterest>currentPrincipal',
    );
    expect(p.ruleText).toMatch(/^Погашено в очерёдности: Комиссии → Неустойка → /);
    expect(p.parts.find((x) => x.component === 'currentInterest')?.componentName).toBe('Срочные проценты');
    // Interest not yet accrued is interest received in advance; the accruals consume it later.
    expect(p.balances).toMatchObject({
      principalOutstanding: 1_000_000 - 74_560,
      interestReceivable: 0,
      interestAdvance: 20_000,
      overpayment: 5_440,
      cash: -1_000_000 + 100_000,
      balanced: true,
    });
    const after = await schedule(l.id);
    expect(after[0]).toMatchObject({
      paidPrincipal: 74_560,
      paidInterest: 20_000,
      remaining: 0,
      status: 'paid',
    });
    expect(after[1]).toMatchObject({ remaining: 94_560, status: 'upcoming' });
    expect(await transactionsOf(s, l.id, 'repayment')).toBe(1);
  });

  it('settles overdue instalments first, oldest first, and counts days past due', async () => {
    const disbursedOn = monthsAgo(4, 1);
    const { loan: l } = await activeLoan(s, a, 'bank-a', { disbursedOn });
    const rows = await schedule(l.id);
    const overdue = rows.filter((r) => r.dueDate < today());
    expect(overdue.length).toBeGreaterThanOrEqual(3);
    expect(overdue.every((r) => r.status === 'overdue')).toBe(true);
    const before = await loan(l.id);
    expect(before.daysPastDue).toBeGreaterThan(60);
    // Enough for the overdue interest and part of the overdue principal.
    const overdueInterest = sum(overdue.map((r) => r.interest));
    const amount = overdueInterest + 100_000;
    const preview = await ok<PaymentView>(
      s.call(a, 'GET', `/Loans/PreviewPayment?LoanId=${l.id}&Amount=${amount}`),
    );
    const p = await ok(pay(l.id, { amount }));
    expect(partsOf(p)).toEqual({
      fees: 0,
      penalties: 0,
      overdueInterest,
      overduePrincipal: 100_000,
      currentInterest: 0,
      currentPrincipal: 0,
    });
    // The preview answered the same allocation and balances, and booked nothing itself.
    expect({ ...preview, transactionId: p.transactionId }).toEqual(p);
    expect(await transactionsOf(s, l.id, 'repayment')).toBe(1);
    const after = await schedule(l.id);
    expect(after[0]).toMatchObject({ paidPrincipal: overdue[0].principal, status: 'paid' });
    expect(after[1].paidPrincipal).toBe(100_000 - overdue[0].principal);
    // Paying every overdue instalment ends the overdue.
    const rest = sum(after.filter((r) => r.dueDate < today()).map((r) => r.remaining));
    await ok(pay(l.id, { amount: rest }));
    expect((await loan(l.id)).daysPastDue).toBe(0);
  });

  it("follows the product's allocation order", async () => {
    const order = [
      'overduePrincipal',
      'overdueInterest',
      'currentPrincipal',
      'currentInterest',
      'penalties',
      'fees',
    ];
    const { loan: l } = await activeLoan(s, a, 'bank-a', {
      product: { allocationOrder: order },
      disbursedOn: monthsAgo(2, 1),
    });
    const overdue = (await schedule(l.id)).filter((r) => r.dueDate < today());
    const principalDue = sum(overdue.map((r) => r.principal));
    const p = await ok(pay(l.id, { amount: principalDue + 10 }));
    expect(p.parts.map((x) => x.component)).toEqual(order);
    expect(partsOf(p)).toMatchObject({ overduePrincipal: principalDue, overdueInterest: 10 });
    expect(p.rule).toBe(`allocation.order:${order.join('>')}`);
  });

  it('charges the origination fee with the first instalment and settles it first', async () => {
    const { loan: l, schedule: rows } = await activeLoan(s, a, 'bank-a', {
      product: { originationFee: 5_000, originationFeePercent: '1' },
    });
    expect(l.originationFee).toBe(15_000);
    expect([rows[0].fees, rows[0].total]).toEqual([15_000, 94_560 + 15_000]);
    expect((await balances(l.id)).feeReceivable).toBe(15_000);
    const p = await ok(pay(l.id, { amount: 20_000 }));
    expect(partsOf(p)).toMatchObject({ fees: 15_000, currentInterest: 5_000 });
    expect((await balances(l.id)).feeReceivable).toBe(0);
  });

  it('reduces the instalment on an early partial repayment: same dates, smaller instalments', async () => {
    const { loan: l, schedule: rows } = await activeLoan(s, a, 'bank-a');
    const p = await ok(pay(l.id, { amount: 300_000, mode: 'reduceInstalment' }));
    // Paid the day it was lent: no interest accrued yet, everything goes to principal.
    expect(partsOf(p)).toMatchObject({ currentInterest: 0, currentPrincipal: 300_000 });
    expect(p.scheduleChanged).toBe(true);
    expect(p.balances.principalOutstanding).toBe(700_000);
    const after = await schedule(l.id);
    expect(after.map((r) => r.dueDate)).toEqual(rows.map((r) => r.dueDate));
    expect(sum(after.map((r) => r.principal))).toBe(700_000);
    expect(after[0].total).toBeLessThan(rows[0].total);
    // PMT(2%, 12, -700 000) = 66 191.72 -> 66 192
    expect(after[0].total).toBe(66_192);
  });

  it('reduces the term on an early partial repayment: same instalment, fewer of them', async () => {
    const { loan: l, schedule: rows } = await activeLoan(s, a, 'bank-a');
    await ok(pay(l.id, { amount: 300_000, mode: 'reduceTerm' }));
    const after = await schedule(l.id);
    expect(after.length).toBeLessThan(rows.length);
    expect(after[0].total).toBe(94_560);
    expect(sum(after.map((r) => r.principal))).toBe(700_000);
    expect(after.map((r) => r.number)).toEqual(after.map((_, i) => i + 1));
  });

  it('charges interest only to the value date on an early repayment in the middle of a period', async () => {
    const disbursedOn = dayFromToday(-10);
    const { loan: l } = await activeLoan(s, a, 'bank-a', { disbursedOn, product: { dayCount: 'ACT/365F' } });
    const preview = await ok<PaymentView>(
      s.call(a, 'GET', `/Loans/PreviewPayment?LoanId=${l.id}&Amount=2000000&Mode=reduceTerm`),
    );
    // 1 000 000 x 24% x 10/365 = 6 575.34 -> 6 575
    expect(partsOf(preview)).toMatchObject({ currentInterest: 6_575, currentPrincipal: 1_000_000 });
    expect(preview.overpayment).toBe(2_000_000 - 1_006_575);
    expect(preview.loanStatus).toBe('closed');
    expect(await transactionsOf(s, l.id, 'repayment')).toBe(0);
  });

  it('closes the loan on full early repayment, and a reversal reopens it with the schedule it had', async () => {
    const { loan: l, schedule: rows } = await activeLoan(s, a, 'bank-a');
    const before = await balances(l.id);
    const p = await ok(pay(l.id, { amount: 1_000_100, mode: 'reduceTerm' }));
    expect(p.loanStatus).toBe('closed');
    expect(p.overpayment).toBe(100);
    expect(p.balances).toMatchObject({ principalOutstanding: 0, totalOutstanding: 0, overpayment: 100 });
    const closed = await loan(l.id);
    expect([closed.status, closed.closedOn]).toEqual(['closed', today()]);
    expect(await schedule(l.id)).toEqual([]);
    const refused = await pay(l.id, { amount: 1 });
    expect([refused.status, refused.body.value.reason]).toEqual([409, 'LOAN_NOT_ACTIVE']);

    const r = await ok<{
      loanStatus: string;
      scheduleRestored: boolean;
      balances: BalancesView;
      transactionId: string;
    }>(s.call(idem(a), 'POST', '/Loans/ReversePayment', { loanId: l.id, transactionId: p.transactionId }));
    expect([r.loanStatus, r.scheduleRestored]).toEqual(['active', true]);
    const restored = await balances(l.id);
    // Every balance is what it was before the payment (the cash account too); only the turnover grew.
    const balance = (b: BalancesView) => Object.fromEntries(b.accounts.map((x) => [x.account, x.balance]));
    expect(balance(restored)).toEqual(balance(before));
    expect((await schedule(l.id)).map((x) => [x.id, x.remaining])).toEqual(
      rows.map((x) => [x.id, x.remaining]),
    );
    expect((await loan(l.id)).closedOn).toBeNull();

    const again = await s.call(idem(a), 'POST', '/Loans/ReversePayment', {
      loanId: l.id,
      transactionId: p.transactionId,
    });
    expect([again.status, again.body.value.reason]).toEqual([409, 'LOAN_TRANSACTION_ALREADY_REVERSED']);
  });

  it('reverses only payments, and only the latest transaction', async () => {
    const { loan: l, transactionId: disbursement } = await activeLoan(s, a, 'bank-a');
    const first = await ok(pay(l.id, { amount: 50_000 }));
    await ok(pay(l.id, { amount: 50_000 }));
    const reverse = (transactionId: string, lang = 'en') =>
      s.call(idem(a), 'POST', '/Loans/ReversePayment', { loanId: l.id, transactionId }, lang);
    const older = await reverse(first.transactionId as string);
    expect([older.status, older.body.value.reason]).toEqual([409, 'LOAN_TRANSACTION_NOT_LATEST']);
    const notPayment = await reverse(disbursement, 'es');
    expect([notPayment.status, notPayment.body.value.reason]).toEqual([
      409,
      'LOAN_TRANSACTION_NOT_REVERSIBLE',
    ]);
    expect(notPayment.body.error).toContain('«Desembolso»');
    const unknown = await reverse('00000000-0000-4000-8000-000000000000');
    expect([unknown.status, unknown.body.value.reason]).toEqual([404, 'LOAN_TRANSACTION_NOT_FOUND']);
    const txs = await ok<{
      items: { kind: string; reversedBy: string | null; lines: unknown[] }[];
      total: number;
    }>(s.call(a, 'GET', `/Loans/GetLoanTransactions?LoanId=${l.id}`));
    expect(txs.items.map((t) => t.kind)).toEqual(['disbursement', 'repayment', 'repayment']);
    expect(txs.total).toBe(3);
  });

  it('reverses an earlier payment once every payment after it is reversed', async () => {
    const { loan: l, schedule: rows } = await activeLoan(s, a, 'bank-a');
    const before = await balances(l.id);
    const p1 = await ok(pay(l.id, { amount: 50_000 }));
    const p2 = await ok(pay(l.id, { amount: 300_000, mode: 'reduceTerm' }));
    const reverse = (transactionId: string | null) =>
      s.call<Env & { latestTransactionId?: string }>(idem(a), 'POST', '/Loans/ReversePayment', {
        loanId: l.id,
        transactionId,
      });
    const standing = await reverse(p1.transactionId);
    expect([standing.status, standing.body.value.reason, standing.body.value.latestTransactionId]).toEqual([
      409,
      'LOAN_TRANSACTION_NOT_LATEST',
      p2.transactionId,
    ]);
    expect((await reverse(p2.transactionId)).status).toBe(200);
    // P2 and its reversal cancel out: P1 is the latest operation that stands.
    const first = await reverse(p1.transactionId);
    expect(first.status).toBe(200);
    const balance = (b: BalancesView) => Object.fromEntries(b.accounts.map((x) => [x.account, x.balance]));
    expect(balance(await balances(l.id))).toEqual(balance(before));
    expect((await schedule(l.id)).map((x) => [x.id, x.remaining])).toEqual(
      rows.map((x) => [x.id, x.remaining]),
    );
    expect(await transactionsOf(s, l.id, 'reversal')).toBe(2);
  });

  it('refuses value dates in the future or before the last transaction', async () => {
    const { loan: l } = await activeLoan(s, a, 'bank-a', { disbursedOn: dayFromToday(-20) });
    const future = await pay(l.id, { amount: 1_000, valueDate: dayFromToday(1) });
    expect([future.status, future.body.value.reason]).toEqual([422, 'LOAN_VALUE_DATE_OUT_OF_RANGE']);
    await ok(pay(l.id, { amount: 1_000, valueDate: dayFromToday(-5) }));
    const earlier = await pay(l.id, { amount: 1_000, valueDate: dayFromToday(-6) }, undefined, 'kk');
    expect([earlier.status, earlier.body.value.reason]).toEqual([422, 'LOAN_VALUE_DATE_OUT_OF_RANGE']);
    expect(earlier.body.error).toContain(dayFromToday(-6));
  });

  it('writes a loan off: what is owed moves to credit losses, and no payment is taken after', async () => {
    const { loan: l } = await activeLoan(s, a, 'bank-a');
    await ok(pay(l.id, { amount: 94_560 }));
    const w = await ok<{ amount: number; loan: LoanView; transactionId: string }>(
      s.call(idem(a), 'POST', '/Loans/WriteOffLoan', { loanId: l.id, reason: 'Uncollectable' }),
    );
    expect([w.amount, w.loan.status]).toEqual([1_000_000 - 74_560, 'written_off']);
    const b = await balances(l.id);
    expect(b.principalOutstanding).toBe(0);
    expect(b.accounts.find((x) => x.account === 'credit_losses')?.balance).toBe(1_000_000 - 74_560);
    const after = await pay(l.id, { amount: 1 });
    expect([after.status, after.body.value.reason]).toEqual([409, 'LOAN_NOT_ACTIVE']);
    const twice = await s.call(idem(a), 'POST', '/Loans/WriteOffLoan', { loanId: l.id });
    expect([twice.status, twice.body.value.reason]).toEqual([409, 'LOAN_TRANSITION_NOT_ALLOWED']);
  });

  it('keeps the ledger balanced in the database itself, and append-only for the tenant role', async () => {
    const { loan: l, transactionId } = await activeLoan(s, a, 'bank-a');
    const attempt = (sql: string, params: unknown[]) =>
      withClient(s.db.url, (c) => c.query(sql, params)).then(
        () => 'written',
        (err: { code?: string }) => err.code,
      );
    // One-sided transaction, written as the superuser (row-level security bypassed): refused at commit.
    expect(
      await attempt(
        `WITH t AS (INSERT INTO lending.ledger_transactions (organization_id, loan_id, seq, kind, amount, value_date, details)
           VALUES ('bank-a', $1, 99, 'repayment', 5, current_date, '{}') RETURNING id)
         INSERT INTO lending.ledger_lines (organization_id, transaction_id, loan_id, account, debit)
           SELECT 'bank-a', id, $1, 'cash', 5 FROM t`,
        [l.id],
      ),
    ).toBe('23514');
    // A line added later to a balanced transaction unbalances it: refused too.
    expect(
      await attempt(
        `INSERT INTO lending.ledger_lines (organization_id, transaction_id, loan_id, account, credit)
         VALUES ('bank-a', $1, $2, 'cash', 1)`,
        [transactionId, l.id],
      ),
    ).toBe('23514');
    // The tenant role may not change or delete a line.
    const asTenant = (sql: string) =>
      withClient(s.db.url, async (c) => {
        await c.query('BEGIN');
        await c.query(
          `SELECT set_config('role', 'lending_tenant', true), set_config('lending.organization_id', 'bank-a', true)`,
        );
        try {
          await c.query(sql, [transactionId]);
          return 'written';
        } catch (err) {
          return (err as { code?: string }).code;
        } finally {
          await c.query('ROLLBACK');
        }
      });
    expect(
      await asTenant(`UPDATE lending.ledger_lines SET debit = debit + 1 WHERE transaction_id = $1`),
    ).toBe('42501');
    expect(await asTenant(`DELETE FROM lending.ledger_transactions WHERE id = $1`)).toBe('42501');
  });

  it('answers 404 for another organization’s loan on every loan route', async () => {
    const b = await s.organization('bank-b');
    const { loan: l } = await activeLoan(s, a, 'bank-a');
    for (const [method, path, body] of [
      ['GET', `/Loans/GetLoan?LoanId=${l.id}`, undefined],
      ['GET', `/Loans/GetLoanSchedule?LoanId=${l.id}`, undefined],
      ['GET', `/Loans/GetLoanTransactions?LoanId=${l.id}`, undefined],
      ['GET', `/Loans/GetLoanBalances?LoanId=${l.id}`, undefined],
      ['GET', `/Loans/PreviewPayment?LoanId=${l.id}&Amount=100`, undefined],
      ['POST', '/Loans/MakePayment', { loanId: l.id, amount: 100 }],
      ['POST', '/Loans/WriteOffLoan', { loanId: l.id }],
      ['POST', '/Loans/CancelLoan', { loanId: l.id }],
      ['POST', '/Loans/DisburseLoan', { loanId: l.id }],
    ] as const) {
      const r = await s.call<Env>(idem(b), method, path, body);
      expect([path, r.status, r.body.value.reason]).toEqual([path, 404, 'LOAN_NOT_FOUND']);
    }
    expect(await transactionsOf(s, l.id)).toBe(1);
  });
});
