import { randomUUID } from 'node:crypto';
import { lendingEventViolations } from '@platform/messaging';
import { withClient } from '@platform/testing';
import { startLending, type LendingFixture } from './lending-fixture';
import {
  activeLoan,
  dayFromToday,
  idem,
  monthsAgo,
  ok,
  type InstalmentView,
  type PaymentView,
} from './loans-helpers';

type Posting = { debit: string; credit: string; amount: number };
interface OutboxEvent {
  id: string;
  type: string;
  topic: string;
  tenant: string;
  payload: Record<string, unknown> & { postings?: Posting[]; operationId?: string };
}

/** Accounts that exist only in the accounting events: a transit account and the off-balance memo. */
const NOT_IN_LEDGER = new Set(['unallocated_payments', 'written_off_debt', 'off_balance_contra']);

describe('lending loan events in the outbox (real PostgreSQL)', () => {
  let s: LendingFixture;
  let a: Record<string, string>;

  beforeAll(async () => {
    s = await startLending('lending_loan_events');
    a = await s.organization('bank-a');
  }, 60_000);

  afterAll(async () => {
    await s?.close();
  });

  /** The loan's events, in writing order. */
  const eventsOf = (loanId: string): Promise<OutboxEvent[]> =>
    withClient(s.db.url, async (c) => {
      const r = await c.query<OutboxEvent>(
        `SELECT id, topic, event_type AS type, tenant_id AS tenant, payload FROM lending.outbox
          WHERE aggregate_id = $1 ORDER BY seq`,
        [loanId],
      );
      return r.rows;
    });
  const typesOf = (events: OutboxEvent[]) => events.map((e) => e.type.replace(/^lending\./, ''));
  /**
   * Per account, debits minus credits of the accounting events of an operation. The transit account
   * (payments wait there until applied) and the off-balance memo pair each net to zero and are left
   * out: what remains must be exactly what the ledger lines of the operation moved.
   */
  const netOfEvents = (events: OutboxEvent[]) => {
    const net: Record<string, number> = {};
    for (const e of events)
      for (const p of e.payload.postings ?? []) {
        net[p.debit] = (net[p.debit] ?? 0) + p.amount;
        net[p.credit] = (net[p.credit] ?? 0) - p.amount;
      }
    expect(net.unallocated_payments ?? 0).toBe(0);
    expect((net.written_off_debt ?? 0) + (net.off_balance_contra ?? 0)).toBe(0);
    return Object.fromEntries(Object.entries(net).filter(([k, v]) => v !== 0 && !NOT_IN_LEDGER.has(k)));
  };
  const netOfLedger = (transactionId: string) =>
    withClient(s.db.url, async (c) => {
      const r = await c.query<{ account: string; net: string }>(
        `SELECT account, sum(debit - credit)::text AS net FROM lending.ledger_lines WHERE transaction_id = $1 GROUP BY account`,
        [transactionId],
      );
      return Object.fromEntries(r.rows.map((x) => [x.account, Number(x.net)]).filter(([, v]) => v !== 0));
    });
  const since = async (loanId: string, before: number) => (await eventsOf(loanId)).slice(before);
  /**
   * The loan's accruals up to today: a payment would post them first (its own catch-up), so a test
   * about the payment's events runs them before counting (loans-accruals.int-spec.ts tests them).
   */
  const accrue = (loanId: string) => ok(s.call(a, 'POST', '/Loans/RunAccruals', { loanId }));

  /** Every event is valid for its contract and the accounting events of one operation post its ledger lines. */
  async function checkOperation(events: OutboxEvent[], transactionId: string) {
    for (const e of events) {
      expect([e.type, lendingEventViolations(e.type, e.payload)]).toEqual([e.type, []]);
      expect(e.tenant).toBe('bank-a');
      expect(e.payload.organizationId).toBe('bank-a');
    }
    const accounting = events.filter((e) => e.type.startsWith('lending.accounting.'));
    for (const e of accounting) expect(e.payload.operationId).toBe(transactionId);
    expect(netOfEvents(accounting)).toEqual(await netOfLedger(transactionId));
  }

  it('announces a disbursement: the contract and the money out, to the bureau and to accounting', async () => {
    const { loan, transactionId, schedule } = await activeLoan(s, a, 'bank-a', {
      product: { originationFee: 3_000 },
    });
    const events = await eventsOf(loan.id);
    expect(typesOf(events)).toEqual([
      'bureau.loan-contract-concluded',
      'bureau.loan-disbursed',
      'accounting.loan-disbursed',
      'accounting.fee-charged',
    ]);
    await checkOperation(events, transactionId);
    const concluded = events[0].payload;
    expect(concluded).toMatchObject({
      agreementId: loan.id,
      loanId: loan.id,
      amount: 1_000_000,
      nominalRate: '24',
      firstPaymentDate: schedule[0].dueDate,
      maturityDate: schedule[11].dueDate,
      instalmentAmount: 94_560,
      fullCostAmount: schedule.reduce((x: number, r: InstalmentView) => x + r.total, 0) - 1_000_000,
    });
    expect(concluded.bureauUid).toMatch(/^[0-9a-f-]{36}-[0-9a-f]$/);
    expect(Number(concluded.fullCostRate)).toBeGreaterThan(24);
    expect(events[0].topic).toBe('lending.contract.bureau-events.v1');
    expect(events[2].topic).toBe('lending.contract.accounting-events.v1');
  });

  it('reports the full cost of an annuity without fees as its nominal rate, to three decimals (353-FZ)', async () => {
    const { loan } = await activeLoan(s, a, 'bank-a');
    const [concluded] = await eventsOf(loan.id);
    expect(concluded.payload.fullCostRate).toBe('24.000');
  });

  it('announces a payment with its allocation and the end of an overdue', async () => {
    const { loan } = await activeLoan(s, a, 'bank-a', { disbursedOn: monthsAgo(2, 1) });
    const rows = (
      await ok<{ items: InstalmentView[] }>(s.call(a, 'GET', `/Loans/GetLoanSchedule?LoanId=${loan.id}`))
    ).items;
    const due = rows.filter((r) => r.dueDate < dayFromToday(0)).reduce((x, r) => x + r.remaining, 0);
    await accrue(loan.id);
    const before = (await eventsOf(loan.id)).length;
    const p = await ok<PaymentView>(
      s.call(idem(a), 'POST', '/Loans/MakePayment', { loanId: loan.id, amount: due + 7, channel: 'card' }),
    );
    const events = await since(loan.id, before);
    expect(typesOf(events)).toEqual([
      'bureau.payment-received',
      'bureau.overdue-repaid',
      'accounting.payment-received',
      'accounting.payment-allocated',
    ]);
    await checkOperation(events, p.transactionId as string);
    expect(events[0].payload).toMatchObject({ kind: 'overdue', amount: due + 7, paymentId: p.transactionId });
    expect(events[1].payload.daysPastDue).toBeGreaterThan(0);
    expect(events[2].payload.channel).toBe('card');
    // The 7 went to the current instalment (regular payment): allocated, not an overpayment.
    expect(events[3].payload.amount).toBe(due + 7);
  });

  it('announces an early partial repayment as changed terms, and a full one as the end of the loan', async () => {
    const { loan } = await activeLoan(s, a, 'bank-a', { disbursedOn: dayFromToday(-10) });
    await accrue(loan.id);
    let before = (await eventsOf(loan.id)).length;
    const partial = await ok<PaymentView>(
      s.call(idem(a), 'POST', '/Loans/MakePayment', {
        loanId: loan.id,
        amount: 200_000,
        mode: 'reduceInstalment',
      }),
    );
    let events = await since(loan.id, before);
    expect(typesOf(events)).toEqual([
      'bureau.payment-received',
      'bureau.terms-changed',
      'accounting.payment-received',
      'accounting.early-repayment-applied',
    ]);
    await checkOperation(events, partial.transactionId as string);
    expect(events[0].payload.kind).toBe('early-partial');
    expect(events[1].payload.reason).toBe('early-repayment-reduce-instalment');
    expect(events[3].payload).toMatchObject({ option: 'reduce-instalment', amount: 200_000 });

    before += events.length;
    const full = await ok<PaymentView>(
      s.call(idem(a), 'POST', '/Loans/MakePayment', {
        loanId: loan.id,
        amount: 2_000_000,
        mode: 'reduceTerm',
      }),
    );
    events = await since(loan.id, before);
    expect(typesOf(events)).toEqual([
      'bureau.payment-received',
      'bureau.loan-repaid',
      'accounting.payment-received',
      'accounting.early-repayment-applied',
      'accounting.overpayment-recorded',
      'accounting.loan-closed',
    ]);
    await checkOperation(events, full.transactionId as string);
    expect(events[1].payload).toMatchObject({ early: true, lastPaymentId: full.transactionId });
    expect(events[3].payload).toMatchObject({ option: 'full', newMaturityDate: null });
  });

  it('announces a reversal and a write-off, and nothing for a replayed operation', async () => {
    const { loan } = await activeLoan(s, a, 'bank-a');
    const key = randomUUID();
    const pay = () =>
      ok<PaymentView>(
        s.call(idem(a, key), 'POST', '/Loans/MakePayment', { loanId: loan.id, amount: 50_000 }),
      );
    const p = await pay();
    const afterPayment = (await eventsOf(loan.id)).length;
    await pay();
    expect((await eventsOf(loan.id)).length).toBe(afterPayment);

    const r = await ok<{ transactionId: string }>(
      s.call(idem(a), 'POST', '/Loans/ReversePayment', {
        loanId: loan.id,
        transactionId: p.transactionId,
        reasonCode: 'returned-by-bank',
      }),
    );
    let events = await since(loan.id, afterPayment);
    expect(typesOf(events)).toEqual(['bureau.payment-reversed', 'accounting.payment-reversed']);
    await checkOperation(events, r.transactionId);
    expect(events[1].payload).toMatchObject({
      reason: 'returned-by-bank',
      reversesOperationId: p.transactionId,
    });

    const before = afterPayment + events.length;
    const w = await ok<{ transactionId: string }>(
      s.call(idem(a), 'POST', '/Loans/WriteOffLoan', { loanId: loan.id, reasonCode: 'bankruptcy-completed' }),
    );
    events = await since(loan.id, before);
    expect(typesOf(events)).toEqual(['accounting.loan-written-off']);
    await checkOperation(events, w.transactionId);
    expect(events[0].payload).toMatchObject({ amount: 1_000_000, reason: 'bankruptcy-completed' });
  });
});
