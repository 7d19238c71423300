import { randomUUID } from 'node:crypto';
import { withClient } from '@platform/testing';
import { insertCustomer, submitted } from './applications-helpers';
import { startLending, type LendingFixture } from './lending-fixture';
import {
  activeLoan,
  approvedApplication,
  createdLoan,
  dayFromToday,
  idem,
  ok,
  productBody,
  unbalancedTransactions,
  type InstalmentView,
  type LoanView,
} from './loans-helpers';

interface ProductView {
  id: string;
  code: string;
  annualRate: string;
  originationFeePercent: string;
  allocationOrder: string[];
  rounding: string;
  active: boolean;
  version: number;
}

describe('lending loans: products, contracts, disbursement (real PostgreSQL)', () => {
  let s: LendingFixture;
  let a: Record<string, string>;

  beforeAll(async () => {
    s = await startLending('lending_loans');
    a = await s.organization('bank-a');
  }, 60_000);

  afterAll(async () => {
    await s?.close();
  });

  afterEach(async () => {
    expect(await unbalancedTransactions(s)).toEqual([]);
  });

  const product = (over: Record<string, unknown> = {}, lang = 'en') =>
    s.call<ProductView & { problem?: string; field?: string }>(
      a,
      'POST',
      '/Loans/CreateLoanProduct',
      productBody(over),
      lang,
    );
  const reason = (r: { status: number; body: { value: { reason?: string } } }) => [
    r.status,
    r.body.value.reason,
  ];

  describe('products', () => {
    it('creates a product with defaults and its rate in its shortest form', async () => {
      const p = await ok(product({ annualRate: '24.50', originationFeePercent: '1.250' }), 201);
      expect(p).toMatchObject({
        annualRate: '24.5',
        originationFeePercent: '1.25',
        allocationOrder: [
          'fees',
          'penalties',
          'overdueInterest',
          'overduePrincipal',
          'currentInterest',
          'currentPrincipal',
        ],
        rounding: 'half-up',
        active: true,
        version: 1,
      });
      expect(await ok(s.call(a, 'GET', `/Loans/GetLoanProduct?ProductId=${p.id}`))).toEqual(p);
      const taken = await product({ code: p.code });
      expect(reason(taken)).toEqual([409, 'LOAN_PRODUCT_CODE_TAKEN']);
    });

    it('refuses terms that contradict each other, naming the problem in the request language', async () => {
      const range = await product({ minAmount: 2_000_000, maxAmount: 1_000_000 }, 'ru');
      expect(reason(range)).toEqual([422, 'LOAN_PRODUCT_INVALID']);
      expect(range.body.error).toContain('минимальная сумма больше максимальной');
      expect(range.body.value).toMatchObject({ field: 'minAmount', problem: 'AMOUNT_RANGE' });
      const order = await product({
        allocationOrder: [
          'fees',
          'fees',
          'overdueInterest',
          'overduePrincipal',
          'currentInterest',
          'currentPrincipal',
        ],
      });
      expect([...reason(order), order.body.value.problem]).toEqual([
        422,
        'LOAN_PRODUCT_INVALID',
        'ALLOCATION_ORDER',
      ]);
      // A component twice (also past the six) or one that does not exist, as the docs say.
      for (const allocationOrder of [
        ['penalties', 'penalties'],
        ['fees', 'principal'],
        [
          'fees',
          'penalties',
          'overdueInterest',
          'overduePrincipal',
          'currentInterest',
          'currentPrincipal',
          'fees',
        ],
      ]) {
        const r = await product({ allocationOrder }, 'tr');
        expect([...reason(r), r.body.value.problem, r.body.value.field]).toEqual([
          422,
          'LOAN_PRODUCT_INVALID',
          'ALLOCATION_ORDER',
          'allocationOrder',
        ]);
      }
      const made = await ok(product(), 201);
      const changed = await s.call<{ problem?: string }>(a, 'POST', '/Loans/UpdateLoanProduct', {
        productId: made.id,
        allocationOrder: ['fees', 'fees'],
      });
      expect([...reason(changed), changed.body.value.problem]).toEqual([
        422,
        'LOAN_PRODUCT_INVALID',
        'ALLOCATION_ORDER',
      ]);
      const grace = await product({ minTerm: 3, graceInterestOnly: 2, gracePrincipal: 1 });
      expect(grace.body.value.problem).toBe('GRACE');
      const high = await product({ penaltyAnnualRate: '1000' });
      expect(high.body.value.problem).toBe('RATE_TOO_HIGH');
      const fee = await product({ originationFeePercent: '100.5' });
      expect(fee.body.value.problem).toBe('FEE_TOO_HIGH');
      await ok(product({ originationFeePercent: '100.0' }), 201);
      const shape = await product({ annualRate: 24, dayCount: 'ACT/364', frequency: 'daily' });
      expect(reason(shape)).toEqual([400, 'VALIDATION_FAILED']);
      expect([...new Set(shape.body.value.fields?.map((f) => f.field))].sort()).toEqual([
        'annualRate',
        'dayCount',
        'frequency',
      ]);
    });

    it('changes a product for new loans only, with optimistic versions', async () => {
      const p = await ok(product(), 201);
      const made = await ok<LoanView>(
        s.call(a, 'POST', '/Loans/CreateLoan', {
          applicationId: await approvedApplication(s, a, 'bank-a'),
          productId: p.id,
        }),
        201,
      );
      const changed = await ok<ProductView>(
        s.call(a, 'POST', '/Loans/UpdateLoanProduct', {
          productId: p.id,
          version: 1,
          annualRate: '30',
          active: false,
        }),
      );
      expect([changed.annualRate, changed.active, changed.version]).toEqual(['30', false, 2]);
      // The contract keeps the rate it was made on.
      expect((await ok<LoanView>(s.call(a, 'GET', `/Loans/GetLoan?LoanId=${made.id}`))).annualRate).toBe(
        '24',
      );
      const stale = await s.call(a, 'POST', '/Loans/UpdateLoanProduct', {
        productId: p.id,
        version: 1,
        name: 'x',
      });
      expect(reason(stale)).toEqual([409, 'LOAN_PRODUCT_VERSION_CONFLICT']);
      const bad = await s.call(a, 'POST', '/Loans/UpdateLoanProduct', { productId: p.id, minTerm: 40 });
      expect([...reason(bad), bad.body.value.problem]).toEqual([422, 'LOAN_PRODUCT_INVALID', 'TERM_RANGE']);
      const unknown = await s.call(a, 'POST', '/Loans/UpdateLoanProduct', {
        productId: randomUUID(),
        name: 'x',
      });
      expect(reason(unknown)).toEqual([404, 'LOAN_PRODUCT_NOT_FOUND']);
      // Switched off: no new loan on it.
      const applicationId = await approvedApplication(s, a, 'bank-a');
      const off = await s.call(a, 'POST', '/Loans/CreateLoan', { applicationId, productId: p.id });
      expect(reason(off)).toEqual([409, 'LOAN_PRODUCT_INACTIVE']);
    });

    it('lists products with filters, paging and the total', async () => {
      await ok(product({ currency: 'UZS' }), 201);
      await ok(product({ currency: 'UZS', active: false }), 201);
      const page = await ok<{ items: ProductView[]; total: number }>(
        s.call(a, 'GET', '/Loans/GetLoanProducts?Currency=UZS&Active=true&Count=1'),
      );
      expect(page.total).toBe(1);
      const all = await ok<{ items: ProductView[]; total: number }>(
        s.call(a, 'GET', '/Loans/GetLoanProducts?Currency=UZS&Offset=1&Count=1'),
      );
      expect([all.total, all.items.length]).toEqual([2, 1]);
      const unknown = await s.call(a, 'GET', `/Loans/GetLoanProduct?ProductId=${randomUUID()}`);
      expect(reason(unknown)).toEqual([404, 'LOAN_PRODUCT_NOT_FOUND']);
    });
  });

  describe('contracts', () => {
    it('makes a loan from an approved application, copying the product terms', async () => {
      const created = await createdLoan(s, a, 'bank-a', {
        originationFee: 1_000,
        originationFeePercent: '0.5',
      });
      expect(created).toMatchObject({
        status: 'created',
        statusName: 'Created',
        principal: 1_000_000,
        termCount: 12,
        annualRate: '24',
        originationFee: 1_000 + 5_000,
        principalOutstanding: 0,
        disbursedOn: null,
        nextDueDate: null,
      });
      expect(created.allowedMoves.map((m) => m.action).sort()).toEqual(['CancelLoan', 'DisburseLoan']);
      const listed = await ok<{ items: LoanView[]; total: number }>(
        s.call(
          a,
          'GET',
          `/Loans/GetLoans?Status=created&ApplicationId=${(created as unknown as { applicationId: string }).applicationId}`,
        ),
      );
      expect(listed.items.map((l) => l.id)).toEqual([created.id]);
    });

    it('refuses what the application and the product do not allow', async () => {
      const p = await ok(product(), 201);
      const call = (body: Record<string, unknown>, lang = 'en') =>
        s.call(a, 'POST', '/Loans/CreateLoan', { productId: p.id, ...body }, lang);
      const customerId = await insertCustomer(s, 'bank-a');
      const draft = await submitted(s, a, customerId, '900101300500');
      const notApproved = await call({ applicationId: draft }, 'ru');
      expect(reason(notApproved)).toEqual([409, 'LOAN_APPLICATION_NOT_APPROVED']);
      expect(notApproved.body.error).toContain('«Подана»');
      expect(reason(await call({ applicationId: randomUUID() }))).toEqual([
        404,
        'LOAN_APPLICATION_NOT_FOUND',
      ]);
      const applicationId = await approvedApplication(s, a, 'bank-a');
      expect(reason(await call({ applicationId, productId: randomUUID() }))).toEqual([
        404,
        'LOAN_PRODUCT_NOT_FOUND',
      ]);
      expect(reason(await call({ applicationId, amount: 1_000_001 }))).toEqual([
        422,
        'LOAN_AMOUNT_ABOVE_APPROVED',
      ]);
      expect(reason(await call({ applicationId, amount: 50_000 }))).toEqual([
        422,
        'LOAN_AMOUNT_OUT_OF_RANGE',
      ]);
      expect(reason(await call({ applicationId, termCount: 37 }))).toEqual([422, 'LOAN_TERM_OUT_OF_RANGE']);
      const usd = await ok(product({ currency: 'USD' }), 201);
      expect(reason(await call({ applicationId, productId: usd.id }))).toEqual([
        422,
        'LOAN_CURRENCY_MISMATCH',
      ]);
      const weekly = await ok(product({ frequency: 'weekly', maxTerm: 104 }), 201);
      expect(reason(await call({ applicationId, productId: weekly.id }))).toEqual([
        422,
        'LOAN_TERM_REQUIRED',
      ]);
      await ok(call({ applicationId, productId: weekly.id, termCount: 52, amount: 600_000 }), 201);
      expect(reason(await call({ applicationId }))).toEqual([409, 'LOAN_APPLICATION_HAS_LOAN']);
    });

    it('answers the status dictionary with names and moves in the request language', async () => {
      const d = await ok<{
        items: {
          code: string;
          name: string;
          terminal: boolean;
          transitions: { action: string; to: string }[];
        }[];
      }>(s.call(a, 'GET', '/Loans/GetLoanStatuses', undefined, 'kk'));
      expect(d.items.map((i) => i.code)).toEqual(['created', 'active', 'closed', 'written_off', 'cancelled']);
      expect(d.items.find((i) => i.code === 'active')).toMatchObject({ name: 'Қолданыста', terminal: false });
      expect(d.items.filter((i) => i.terminal).map((i) => i.code)).toEqual(['written_off', 'cancelled']);
      expect(d.items[0].transitions.map((t) => `${t.action}>${t.to}`)).toEqual([
        'DisburseLoan>active',
        'CancelLoan>cancelled',
      ]);
    });

    it('cancels a loan before disbursement, and then nothing else', async () => {
      const loan = await createdLoan(s, a, 'bank-a');
      const cancelled = await ok<LoanView>(s.call(a, 'POST', '/Loans/CancelLoan', { loanId: loan.id }));
      expect(cancelled.status).toBe('cancelled');
      const again = await s.call(a, 'POST', '/Loans/CancelLoan', { loanId: loan.id }, 'uz');
      expect(reason(again)).toEqual([409, 'LOAN_TRANSITION_NOT_ALLOWED']);
      expect(again.body.error).toContain('«Bekor qilindi»');
      const disburse = await s.call(idem(a), 'POST', '/Loans/DisburseLoan', { loanId: loan.id });
      expect(reason(disburse)).toEqual([409, 'LOAN_TRANSITION_NOT_ALLOWED']);
      const unknown = await s.call(a, 'POST', '/Loans/CancelLoan', { loanId: randomUUID() });
      expect(reason(unknown)).toEqual([404, 'LOAN_NOT_FOUND']);
    });
  });

  describe('disbursement', () => {
    it('stores the schedule and posts principal out of cash and the fee charged, balanced', async () => {
      const { loan, schedule, transactionId } = await activeLoan(s, a, 'bank-a', {
        product: { originationFee: 2_000 },
        disbursedOn: '2026-01-31',
      });
      expect([loan.status, loan.disbursedOn, loan.principalOutstanding]).toEqual([
        'active',
        '2026-01-31',
        1_000_000,
      ]);
      // Month ends are kept: Jan 31 -> Feb 28 -> Mar 31 -> Apr 30 ...
      expect(schedule.slice(0, 4).map((r: InstalmentView) => r.dueDate)).toEqual([
        '2026-02-28',
        '2026-03-31',
        '2026-04-30',
        '2026-05-31',
      ]);
      expect(schedule.reduce((x: number, r: InstalmentView) => x + r.principal, 0)).toBe(1_000_000);
      expect(schedule[11].balanceAfter).toBe(0);
      const txs = await ok<{
        items: { id: string; kind: string; lines: { account: string; debit: number; credit: number }[] }[];
      }>(s.call(a, 'GET', `/Loans/GetLoanTransactions?LoanId=${loan.id}`));
      expect(txs.items).toHaveLength(1);
      expect(txs.items[0].id).toBe(transactionId);
      expect(txs.items[0].lines.map((l) => `${l.account}:${l.debit}:${l.credit}`).sort()).toEqual([
        'cash:0:1000000',
        'fee_income:0:2000',
        'fee_receivable:2000:0',
        'loan_principal:1000000:0',
      ]);
      const b = await ok<{
        balanced: boolean;
        cash: number;
        feeReceivable: number;
        principalOutstanding: number;
      }>(s.call(a, 'GET', `/Loans/GetLoanBalances?LoanId=${loan.id}`));
      expect(b).toMatchObject({
        balanced: true,
        cash: -1_000_000,
        feeReceivable: 2_000,
        principalOutstanding: 1_000_000,
      });
    });

    it('takes a first due date, and refuses one not after the disbursement or a future disbursement', async () => {
      const { schedule } = await activeLoan(s, a, 'bank-a', {
        disbursedOn: '2026-03-10',
        firstDueDate: '2026-04-25',
      });
      expect(schedule.map((r: InstalmentView) => r.dueDate).slice(0, 2)).toEqual([
        '2026-04-25',
        '2026-05-25',
      ]);
      const loan = await createdLoan(s, a, 'bank-a');
      const early = await s.call(idem(a), 'POST', '/Loans/DisburseLoan', {
        loanId: loan.id,
        disbursedOn: '2026-03-10',
        firstDueDate: '2026-03-10',
      });
      expect([...reason(early), early.body.value.field]).toEqual([422, 'LOAN_TERMS_INVALID', 'firstDueDate']);
      const future = await s.call(idem(a), 'POST', '/Loans/DisburseLoan', {
        loanId: loan.id,
        disbursedOn: dayFromToday(2),
      });
      expect(reason(future)).toEqual([422, 'LOAN_VALUE_DATE_OUT_OF_RANGE']);
      const stored = await withClient(s.db.url, (c) =>
        c.query('SELECT count(*)::int AS n FROM lending.loan_instalments WHERE loan_id = $1', [loan.id]),
      );
      expect(stored.rows[0].n).toBe(0);
    });

    it('answers 404 for unknown loans on the reads', async () => {
      for (const path of ['GetLoan', 'GetLoanSchedule', 'GetLoanTransactions', 'GetLoanBalances']) {
        const r = await s.call(a, 'GET', `/Loans/${path}?LoanId=${randomUUID()}`);
        expect([path, ...reason(r)]).toEqual([path, 404, 'LOAN_NOT_FOUND']);
      }
    });
  });
});
