import fc from 'fast-check';
import { MAX_MINOR_UNITS } from '../../src/common/money-limits';
import { MAX_RATE_PERCENT } from '../../src/loans/loan-terms';
import { checked, insertCustomer } from './applications-helpers';
import { startLending, type Env, type LendingFixture } from './lending-fixture';
import {
  dayFromToday,
  idem,
  ok,
  productBody,
  unbalancedTransactions,
  type BalancesView,
  type InstalmentView,
  type LoanView,
  type PaymentView,
} from './loans-helpers';

/**
 * Exact money at every size the API accepts (issue 23; docs/decisions/0030-exact-money-range.md), over
 * the whole HTTP path: random amounts from 1 to MAX_MINOR_UNITS, rates up to the product's maximum,
 * terms, schedule types, fees, a back-dated disbursement (so accruals, overdue moves and penalties run),
 * then a short sequence of regular payments, early repayments and reversals. After every step the answer
 * is a 2xx with exact figures or a documented 4xx (never a 5xx), and the ledger read through the API
 * is balanced and agrees, digit for digit, with its own lines added up here in bigint.
 */

/** The schedule ceiling and the loan's ledger ceiling (money.ts, money-range.ts), restated on purpose. */
const MAX_SCHEDULE_TOTAL = 10n ** 15n;
const MAX_LOAN_TURNOVER = 2n ** 52n - 1n;

const IDEMPOTENCY = ['IDEMPOTENCY_KEY_REUSED', 'IDEMPOTENCY_REQUEST_IN_PROGRESS'];
/** The reasons each route documents (@ApiReasons) that this walk can meet. */
const DOCUMENTED: Record<string, string[]> = {
  DisburseLoan: [...IDEMPOTENCY, 'LOAN_TERMS_INVALID', 'LOAN_MATH_OVERFLOW'],
  MakePayment: [...IDEMPOTENCY, 'LOAN_NOT_ACTIVE', 'LOAN_VALUE_DATE_OUT_OF_RANGE', 'LOAN_MATH_OVERFLOW'],
  ReversePayment: [
    ...IDEMPOTENCY,
    'LOAN_TRANSACTION_NOT_REVERSIBLE',
    'LOAN_TRANSACTION_ALREADY_REVERSED',
    'LOAN_TRANSACTION_NOT_LATEST',
    'LOAN_MATH_OVERFLOW',
  ],
  RestructureLoan: [
    ...IDEMPOTENCY,
    'LOAN_NOT_ACTIVE',
    'LOAN_SCHEDULE_CHANGE_INVALID',
    'LOAN_TERM_OUT_OF_RANGE',
    'LOAN_TERMS_INVALID',
    'LOAN_MATH_OVERFLOW',
  ],
  GrantPaymentHoliday: [
    ...IDEMPOTENCY,
    'LOAN_NOT_ACTIVE',
    'LOAN_SCHEDULE_CHANGE_INVALID',
    'LOAN_TERMS_INVALID',
    'LOAN_MATH_OVERFLOW',
  ],
  WriteOffLoan: [...IDEMPOTENCY, 'LOAN_TRANSITION_NOT_ALLOWED', 'LOAN_MATH_OVERFLOW'],
};

interface LineView {
  account: string;
  debit: number;
  credit: number;
}
interface TransactionView {
  id: string;
  kind: string;
  amount: number;
  lines: LineView[];
}

type Step =
  | { kind: 'pay'; amount: number; mode: 'regular' | 'reduceTerm' | 'reduceInstalment' }
  | { kind: 'reverse' }
  | { kind: 'restructure'; rate: number; termCount: number }
  | { kind: 'holiday'; periods: number }
  | { kind: 'writeOff' };

const rateText = (hundredths: number) =>
  `${Math.floor(hundredths / 100)}.${String(hundredths % 100).padStart(2, '0')}`;
const big = (x: number) => BigInt(x);

/** Every amount of an answer is a safe integer (walks the JSON; rates and dates are strings). */
function everyNumberSafe(value: unknown, path = '$'): string[] {
  if (typeof value === 'number') return Number.isSafeInteger(value) ? [] : [`${path}=${value}`];
  if (Array.isArray(value)) return value.flatMap((v, i) => everyNumberSafe(v, `${path}[${i}]`));
  if (value && typeof value === 'object')
    return Object.entries(value).flatMap(([k, v]) => everyNumberSafe(v, `${path}.${k}`));
  return [];
}

const amountArb = fc.oneof(
  { weight: 3, arbitrary: fc.integer({ min: 1, max: 10_000_000 }) },
  { weight: 2, arbitrary: fc.integer({ min: 1, max: MAX_MINOR_UNITS }) },
  { weight: 2, arbitrary: fc.integer({ min: 10 ** 12, max: MAX_MINOR_UNITS }) },
  { weight: 1, arbitrary: fc.constant(MAX_MINOR_UNITS) },
);

const loanArb = fc.record({
  principal: amountArb,
  rate: fc.oneof(
    fc.constant(0),
    fc.integer({ min: 1, max: 5_000 }),
    fc.integer({ min: 1, max: MAX_RATE_PERCENT * 100 - 1 }),
  ),
  penaltyRate: fc.oneof(fc.constant(0), fc.integer({ min: 1, max: MAX_RATE_PERCENT * 100 - 1 })),
  termCount: fc.oneof(
    { weight: 4, arbitrary: fc.integer({ min: 1, max: 36 }) },
    fc.integer({ min: 1, max: 360 }),
  ),
  scheduleType: fc.constantFrom('annuity', 'differentiated', 'bullet'),
  dayCount: fc.constantFrom('30/360', 'ACT/365F', 'ACT/ACT'),
  frequency: fc.constantFrom('monthly', 'monthly', 'quarterly', 'weekly', 'biweekly'),
  originationFee: fc.oneof({ weight: 3, arbitrary: fc.constant(0) }, amountArb),
  daysAgo: fc.integer({ min: 0, max: 40 }),
});

const stepArb: fc.Arbitrary<Step> = fc.oneof(
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant('pay' as const),
      amount: amountArb,
      mode: fc.constantFrom('regular' as const, 'reduceTerm' as const, 'reduceInstalment' as const),
    }),
  },
  { weight: 1, arbitrary: fc.constant({ kind: 'reverse' as const }) },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('restructure' as const),
      rate: fc.integer({ min: 0, max: MAX_RATE_PERCENT * 100 - 1 }),
      termCount: fc.integer({ min: 1, max: 120 }),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({ kind: fc.constant('holiday' as const), periods: fc.integer({ min: 1, max: 6 }) }),
  },
  { weight: 1, arbitrary: fc.constant({ kind: 'writeOff' as const }) },
);

describe('lending money: exact at every size, over HTTP (fast-check, real PostgreSQL)', () => {
  let s: LendingFixture;
  let a: Record<string, string>;

  beforeAll(async () => {
    s = await startLending('lending_money_property');
    a = await s.organization('bank-money');
  }, 60_000);

  afterAll(async () => {
    await s?.close();
  });

  const loanOf = (id: string) => ok<LoanView>(s.call(a, 'GET', `/Loans/GetLoan?LoanId=${id}`));
  const scheduleOf = async (id: string) =>
    (await ok<{ items: InstalmentView[] }>(s.call(a, 'GET', `/Loans/GetLoanSchedule?LoanId=${id}`))).items;
  async function transactionsOf(id: string): Promise<TransactionView[]> {
    const out: TransactionView[] = [];
    for (let offset = 0; ; offset += 500) {
      const page = await ok<{ items: TransactionView[]; total: number }>(
        s.call(a, 'GET', `/Loans/GetLoanTransactions?LoanId=${id}&Offset=${offset}&Count=500`),
      );
      out.push(...page.items);
      if (out.length >= page.total || !page.items.length) return out;
    }
  }

  /** A loan made over HTTP from an application approved for its amount. */
  async function createLoan(l: LoanInput) {
    const product = await ok<{ id: string }>(
      s.call(
        a,
        'POST',
        '/Loans/CreateLoanProduct',
        productBody({
          minAmount: 1,
          maxAmount: MAX_MINOR_UNITS,
          minTerm: 1,
          maxTerm: Math.max(l.termCount, 1),
          annualRate: rateText(l.rate),
          penaltyAnnualRate: rateText(l.penaltyRate),
          scheduleType: l.scheduleType,
          dayCount: l.dayCount,
          frequency: l.frequency,
          originationFee: l.originationFee,
        }),
      ),
      201,
    );
    const customerId = await insertCustomer(s, 'bank-money');
    const app = await checked(s, a, customerId, '900101300500', {
      product: {
        productCode: 'CONSUMER_CASH',
        amount: l.principal,
        currency: 'KZT',
        termMonths: 12,
        purpose: 'Any',
      },
      applicant: { nationalId: '900101300500', monthlyIncome: MAX_MINOR_UNITS, monthlyExpenses: 0 },
    });
    if (app.status !== 'approved') throw new Error(`application ${app.status}`);
    return ok<LoanView>(
      s.call(a, 'POST', '/Loans/CreateLoan', {
        applicationId: app.id,
        productId: product.id,
        amount: l.principal,
        termCount: l.termCount,
      }),
      201,
    );
  }

  /** What the walk met, by route and answer: printed, so a run that exercised nothing shows. */
  const seen = new Map<string, number>();

  /** A 2xx, or a 4xx whose reason the route documents; never a 5xx. */
  function answered<T>(route: string, r: { status: number; body: Env<T> }): boolean {
    const key = `${route} ${r.status}${r.status >= 300 ? ` ${r.body.value?.reason}` : ''}`;
    seen.set(key, (seen.get(key) ?? 0) + 1);
    if (r.status >= 200 && r.status < 300) {
      expect(everyNumberSafe(r.body.value)).toEqual([]);
      return true;
    }
    expect({ route, status: r.status, reason: r.body.value?.reason }).toEqual({
      route,
      status: r.status < 500 ? r.status : 'a 4xx',
      reason: DOCUMENTED[route].includes(r.body.value?.reason ?? '')
        ? r.body.value.reason
        : DOCUMENTED[route],
    });
    return false;
  }

  /** The loan's ledger and balances, read through the API, checked against its lines added up in bigint. */
  async function checkLedger(loanId: string) {
    const balances = await ok<BalancesView>(s.call(a, 'GET', `/Loans/GetLoanBalances?LoanId=${loanId}`));
    expect(everyNumberSafe(balances)).toEqual([]);
    const txs = await transactionsOf(loanId);
    const sums = new Map<string, { debit: bigint; credit: bigint }>();
    let debits = 0n;
    let credits = 0n;
    for (const t of txs) {
      expect(everyNumberSafe(t)).toEqual([]);
      const d = t.lines.reduce((x, l) => x + big(l.debit), 0n);
      const c = t.lines.reduce((x, l) => x + big(l.credit), 0n);
      expect({ transaction: t.kind, debits: d }).toEqual({ transaction: t.kind, debits: c });
      debits += d;
      credits += c;
      for (const l of t.lines) {
        const acc = sums.get(l.account) ?? { debit: 0n, credit: 0n };
        acc.debit += big(l.debit);
        acc.credit += big(l.credit);
        sums.set(l.account, acc);
      }
    }
    expect(debits).toBe(credits);
    expect(debits).toBeLessThanOrEqual(MAX_LOAN_TURNOVER);
    expect(balances.balanced).toBe(true);
    const balanceOf: Record<string, bigint> = {};
    for (const acc of balances.accounts as (BalancesView['accounts'][number] & { type: string })[]) {
      const own = sums.get(acc.account) ?? { debit: 0n, credit: 0n };
      // Assets and expenses grow with debits, liabilities and income with credits.
      const debitNormal = acc.type === 'asset' || acc.type === 'expense';
      const expected = debitNormal ? own.debit - own.credit : own.credit - own.debit;
      expect({
        account: acc.account,
        debit: big(acc.debit),
        credit: big(acc.credit),
        balance: big(acc.balance),
      }).toEqual({ account: acc.account, debit: own.debit, credit: own.credit, balance: expected });
      balanceOf[acc.account] = expected;
    }
    const principal = balanceOf.loan_principal + balanceOf.overdue_principal;
    expect(big(balances.principalOutstanding)).toBe(principal);
    expect(big(balances.totalOutstanding)).toBe(
      principal +
        balanceOf.interest_receivable +
        balanceOf.overdue_interest +
        balanceOf.penalty_receivable +
        balanceOf.fee_receivable,
    );
    const rows = await scheduleOf(loanId);
    expect(everyNumberSafe(rows)).toEqual([]);
    let scheduled = 0n;
    for (const r of rows) {
      expect(big(r.total)).toBe(big(r.principal) + big(r.interest) + big(r.fees));
      scheduled += big(r.total);
    }
    expect(scheduled).toBeLessThanOrEqual(MAX_SCHEDULE_TOTAL);
    return { balances, txs, rows };
  }

  it('answers 422 LOAN_MATH_OVERFLOW (localised) for the issue-23 loan, and writes nothing', async () => {
    const loan = await createLoan({
      principal: 2 * 10 ** 13,
      rate: 99_999,
      penaltyRate: 0,
      termCount: 600,
      scheduleType: 'annuity',
      dayCount: '30/360',
      frequency: 'monthly',
      originationFee: 0,
      daysAgo: 0,
    });
    const r = await s.call(idem(a), 'POST', '/Loans/DisburseLoan', { loanId: loan.id }, 'ru');
    expect(r.status).toBe(422);
    expect(r.body.value.reason).toBe('LOAN_MATH_OVERFLOW');
    expect(r.body.error).toMatch(/^Суммы превысили бы предел точного учёта \(total\)/);
    expect((await loanOf(loan.id)).status).toBe('created');
    expect(await transactionsOf(loan.id)).toEqual([]);
    expect(await scheduleOf(loan.id)).toEqual([]);
  });

  it('stops charging a loan at half the ledger ceiling (capped), keeps it payable, and refuses past the ceiling', async () => {
    // 9x10^14 at 10% over one month: the schedule totals 9.075x10^14, under 10^15.
    const loan = await createLoan({
      principal: 9 * 10 ** 14,
      rate: 1_000,
      penaltyRate: 0,
      termCount: 1,
      scheduleType: 'annuity',
      dayCount: 'ACT/365F',
      frequency: 'monthly',
      originationFee: 0,
      daysAgo: 0,
    });
    const on = dayFromToday(-20);
    await ok(s.call(idem(a), 'POST', '/Loans/DisburseLoan', { loanId: loan.id, disbursedOn: on }));
    // A payment of 10^15 on the disbursement day (nothing accrued yet), then its reversal: the ledger has
    // turned over more than half of 2^52 - 1, and no accrual ran in between (a reversal catches none up).
    const paid = await ok<PaymentView>(
      s.call(idem(a), 'POST', '/Loans/MakePayment', {
        loanId: loan.id,
        amount: MAX_MINOR_UNITS,
        valueDate: on,
      }),
    );
    await ok(
      s.call(idem(a), 'POST', '/Loans/ReversePayment', {
        loanId: loan.id,
        transactionId: paid.transactionId,
      }),
    );
    const before = await checkLedger(loan.id);
    const turnover = before.txs.flatMap((t) => t.lines).reduce((x, l) => x + big(l.debit), 0n);
    expect(turnover).toBeGreaterThan(MAX_LOAN_TURNOVER / 2n);

    const run = await ok<{ capped: number; interest: number; transactions: number; failed: number }>(
      s.call(a, 'POST', '/Loans/RunAccruals', { loanId: loan.id }),
    );
    // 20 days of interest (about 2.5x10^10 a day) not charged: each day counted, nothing posted.
    expect(run).toMatchObject({ interest: 0, failed: 0 });
    expect(run.capped).toBeGreaterThanOrEqual(19);
    const after = await checkLedger(loan.id);
    expect(after.txs.filter((t) => t.kind === 'interest_accrual')).toEqual([]);
    expect(after.balances.totalOutstanding).toBe(before.balances.totalOutstanding);

    // A payment of 10^15 more and its reversal would pass 2^52 - 1: the reversal is refused, nothing written.
    const second = await ok<PaymentView>(
      s.call(idem(a), 'POST', '/Loans/MakePayment', { loanId: loan.id, amount: MAX_MINOR_UNITS }),
    );
    const count = (await transactionsOf(loan.id)).length;
    const refused = await s.call(idem(a), 'POST', '/Loans/ReversePayment', {
      loanId: loan.id,
      transactionId: second.transactionId,
    });
    expect([refused.status, refused.body.value.reason, refused.body.value.field]).toEqual([
      422,
      'LOAN_MATH_OVERFLOW',
      'ledger',
    ]);
    expect((await transactionsOf(loan.id)).length).toBe(count);
    expect((await loanOf(loan.id)).status).toBe('closed');
    await checkLedger(loan.id);
  });

  it('keeps every answer exact or a documented 4xx, and the ledger balanced, after every step', async () => {
    const seed = Number(process.env.MONEY_PROPERTY_SEED ?? 20261202);
    const started = Date.now();
    await fc.assert(
      fc.asyncProperty(loanArb, fc.array(stepArb, { minLength: 1, maxLength: 4 }), async (l, steps) => {
        const loan = await createLoan(l);
        const disbursedOn = dayFromToday(-l.daysAgo);
        const d = await s.call<{ schedule: InstalmentView[] }>(idem(a), 'POST', '/Loans/DisburseLoan', {
          loanId: loan.id,
          disbursedOn,
        });
        if (!answered('DisburseLoan', d)) {
          // Refused: nothing written.
          expect((await loanOf(loan.id)).status).toBe('created');
          expect(await transactionsOf(loan.id)).toEqual([]);
          return;
        }
        // The first schedule: its principals add up to the principal, the balance runs down to 0.
        const first = d.body.value.schedule;
        let balance = big(l.principal);
        for (const r of first) {
          balance -= big(r.principal);
          expect(big(r.balanceAfter)).toBe(balance);
        }
        expect(balance).toBe(0n);
        expect(first.reduce((x, r) => x + big(r.fees), 0n)).toBe(big(l.originationFee));
        await checkLedger(loan.id);

        const payments: string[] = [];
        for (const step of steps) {
          if (step.kind === 'pay') {
            const p = await s.call<PaymentView>(idem(a), 'POST', '/Loans/MakePayment', {
              loanId: loan.id,
              amount: step.amount,
              mode: step.mode,
            });
            if (answered('MakePayment', p)) {
              const v = p.body.value;
              expect(v.parts.reduce((x, part) => x + big(part.amount), 0n) + big(v.overpayment)).toBe(
                big(step.amount),
              );
              if (step.mode === 'regular' && v.mode === 'regular') {
                // A regular payment settles each component in the answer's order as far as it goes.
                let left = big(step.amount);
                for (const part of v.parts) {
                  const due = big(part.debt) < left ? big(part.debt) : left;
                  expect({ component: part.component, amount: big(part.amount) }).toEqual({
                    component: part.component,
                    amount: due,
                  });
                  left -= due;
                }
                expect(big(v.overpayment)).toBe(left);
              }
              if (v.transactionId) payments.push(v.transactionId);
              const { balances } = await checkLedger(loan.id);
              expect(v.balances.totalOutstanding).toBe(balances.totalOutstanding);
              expect(v.balances.principalOutstanding).toBe(balances.principalOutstanding);
              continue;
            }
          } else if (step.kind === 'restructure') {
            const r = await s.call(idem(a), 'POST', '/Loans/RestructureLoan', {
              loanId: loan.id,
              annualRate: rateText(step.rate),
              termCount: step.termCount,
            });
            if (answered('RestructureLoan', r)) payments.length = 0;
          } else if (step.kind === 'holiday') {
            const r = await s.call(idem(a), 'POST', '/Loans/GrantPaymentHoliday', {
              loanId: loan.id,
              periods: step.periods,
            });
            if (answered('GrantPaymentHoliday', r)) payments.length = 0;
          } else if (step.kind === 'writeOff') {
            answered(
              'WriteOffLoan',
              await s.call(idem(a), 'POST', '/Loans/WriteOffLoan', { loanId: loan.id }),
            );
          } else if (payments.length) {
            const r = await s.call(idem(a), 'POST', '/Loans/ReversePayment', {
              loanId: loan.id,
              transactionId: payments[payments.length - 1],
            });
            if (answered('ReversePayment', r)) payments.pop();
          }
          await checkLedger(loan.id);
        }
      }),
      { numRuns: Number(process.env.MONEY_PROPERTY_RUNS ?? 25), seed, endOnFailure: true },
    );
    // Printed so CI shows what the property cost (the issue asks for about a minute on 2 cores).
    process.stdout.write(
      `money property: seed ${seed}, ${Date.now() - started} ms; ${[...seen].map(([k, n]) => `${k}: ${n}`).join(', ')}\n`,
    );
    // The walk reached both sides: disbursements made and refused, payments booked.
    expect(seen.get('DisburseLoan 200')).toBeGreaterThan(0);
    expect(seen.get('MakePayment 200')).toBeGreaterThan(0);
    expect(await unbalancedTransactions(s)).toEqual([]);
  }, 240_000);
});

interface LoanInput {
  principal: number;
  rate: number;
  penaltyRate: number;
  termCount: number;
  scheduleType: string;
  dayCount: string;
  frequency: string;
  originationFee: number;
  daysAgo: number;
}
