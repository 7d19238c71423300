import { startLending, type LendingFixture } from './lending-fixture';
import {
  activeLoan,
  createdLoan,
  monthsAgo,
  ok,
  productBody,
  unbalancedTransactions,
  type InstalmentView,
  type PaymentView,
} from './loans-helpers';

interface ProductView {
  id: string;
  dayCount: string;
  interestMethod: string;
  allocationOrder: string[];
  version: number;
}

const DEFAULT_ORDER = [
  'fees',
  'penalties',
  'overdueInterest',
  'overduePrincipal',
  'currentInterest',
  'currentPrincipal',
];

describe('lending products: day counts, interest method, allocation order (real PostgreSQL)', () => {
  let s: LendingFixture;
  let a: Record<string, string>;

  beforeAll(async () => {
    s = await startLending('lending_product_terms');
    a = await s.organization('bank-a');
  }, 60_000);

  afterAll(async () => {
    await s?.close();
  });

  afterEach(async () => {
    expect(await unbalancedTransactions(s)).toEqual([]);
  });

  const create = (over: Record<string, unknown>, lang = 'en') =>
    s.call<ProductView & { problem?: string; field?: string; reason?: string }>(
      a,
      'POST',
      '/Loans/CreateLoanProduct',
      productBody(over),
      lang,
    );
  const update = (body: Record<string, unknown>, lang = 'en') =>
    s.call<ProductView & { problem?: string; field?: string; reason?: string }>(
      a,
      'POST',
      '/Loans/UpdateLoanProduct',
      body,
      lang,
    );

  it('stores every day count and the interest method, periodic by default, and changes them', async () => {
    for (const dayCount of [
      '30/360 US',
      '30E/360',
      '30E/360 ISDA',
      'ACT/360',
      '30/360',
      'ACT/365F',
      'ACT/ACT',
    ]) {
      const p = await ok<ProductView>(create({ dayCount, interestMethod: 'day-count' }), 201);
      expect([p.dayCount, p.interestMethod]).toEqual([dayCount, 'day-count']);
      expect(await ok<ProductView>(s.call(a, 'GET', `/Loans/GetLoanProduct?ProductId=${p.id}`))).toEqual(p);
    }
    const plain = await ok<ProductView>(create({}), 201);
    expect(plain.interestMethod).toBe('periodic');
    const changed = await ok<ProductView>(
      update({ productId: plain.id, interestMethod: 'day-count', dayCount: '30E/360 ISDA' }),
    );
    expect([changed.interestMethod, changed.dayCount, changed.version]).toEqual([
      'day-count',
      '30E/360 ISDA',
      2,
    ]);
    // Outside the closed sets: the usual 400 with the fields named.
    const bad = await create({ interestMethod: 'actual', dayCount: '30E+/360' });
    expect([bad.status, bad.body.value.reason]).toEqual([400, 'VALIDATION_FAILED']);
    expect(
      [...new Set((bad.body.value as { fields?: { field: string }[] }).fields?.map((f) => f.field))].sort(),
    ).toEqual(['dayCount', 'interestMethod']);
  });

  it('a loan copies the day count and the interest method of its product', async () => {
    const loan = await createdLoan(s, a, 'bank-a', { dayCount: 'ACT/360', interestMethod: 'day-count' });
    const read = await ok<{ dayCount: string; interestMethod: string }>(
      s.call(a, 'GET', `/Loans/GetLoan?LoanId=${loan.id}`),
    );
    expect([read.dayCount, read.interestMethod]).toEqual(['ACT/360', 'day-count']);
    const periodic = await createdLoan(s, a, 'bank-a', {});
    expect((periodic as unknown as { interestMethod: string }).interestMethod).toBe('periodic');
  });

  it('completes an allocation order that names some components, on create and on update', async () => {
    const p = await ok<ProductView>(
      create({ allocationOrder: ['overduePrincipal', 'overdueInterest'] }),
      201,
    );
    expect(p.allocationOrder).toEqual([
      'overduePrincipal',
      'overdueInterest',
      'fees',
      'penalties',
      'currentInterest',
      'currentPrincipal',
    ]);
    const none = await ok<ProductView>(create({ allocationOrder: [] }), 201);
    expect(none.allocationOrder).toEqual(DEFAULT_ORDER);
    const changed = await ok<ProductView>(update({ productId: p.id, allocationOrder: ['currentPrincipal'] }));
    expect(changed.allocationOrder).toEqual(['currentPrincipal', ...DEFAULT_ORDER.slice(0, 5)]);
    expect(
      (await ok<ProductView>(s.call(a, 'GET', `/Loans/GetLoanProduct?ProductId=${p.id}`))).allocationOrder,
    ).toEqual(changed.allocationOrder);
  });

  it('refuses a repeated or unknown component with 422 LOAN_PRODUCT_INVALID, ALLOCATION_ORDER, in the language', async () => {
    for (const [allocationOrder, lang, text] of [
      [['penalties', 'fees', 'penalties'], 'ru', 'названа дважды'],
      [['principal'], 'en', 'twice or one that does not exist'],
      [['fees', 'interest'], 'kk', 'екі рет'],
    ] as [string[], string, string][]) {
      const r = await create({ allocationOrder }, lang);
      expect([r.status, r.body.value.reason, r.body.value.problem, r.body.value.field]).toEqual([
        422,
        'LOAN_PRODUCT_INVALID',
        'ALLOCATION_ORDER',
        'allocationOrder',
      ]);
      expect(r.body.error).toContain(text);
    }
    const p = await ok<ProductView>(create({}), 201);
    const r = await update({ productId: p.id, allocationOrder: ['fees', 'fees'] }, 'tr');
    expect([r.status, r.body.value.problem]).toEqual([422, 'ALLOCATION_ORDER']);
    // Nothing was written: the product keeps its order and version.
    const read = await ok<ProductView>(s.call(a, 'GET', `/Loans/GetLoanProduct?ProductId=${p.id}`));
    expect([read.allocationOrder, read.version]).toEqual([DEFAULT_ORDER, 1]);
  });

  it('a loan on a product with a partial order settles payments in the completed order', async () => {
    const { loan } = await activeLoan(s, a, 'bank-a', {
      product: { allocationOrder: ['overduePrincipal'] },
      disbursedOn: monthsAgo(2, 1),
    });
    const { items: rows } = await ok<{ items: InstalmentView[] }>(
      s.call(a, 'GET', `/Loans/GetLoanSchedule?LoanId=${loan.id}`),
    );
    const today = new Date().toISOString().slice(0, 10);
    const principalDue = rows.filter((r) => r.dueDate < today).reduce((t, r) => t + r.principal, 0);
    expect(principalDue).toBeGreaterThan(0);
    const p = await ok<PaymentView>(
      s.call(a, 'GET', `/Loans/PreviewPayment?LoanId=${loan.id}&Amount=${principalDue + 10}`),
    );
    const order = [
      'overduePrincipal',
      'fees',
      'penalties',
      'overdueInterest',
      'currentInterest',
      'currentPrincipal',
    ];
    expect(p.parts.map((x) => x.component)).toEqual(order);
    expect(Object.fromEntries(p.parts.map((x) => [x.component, x.amount]))).toMatchObject({
      overduePrincipal: principalDue,
      overdueInterest: 10,
    });
    expect(p.rule).toBe(`allocation.order:${order.join('>')}`);
  });
});
