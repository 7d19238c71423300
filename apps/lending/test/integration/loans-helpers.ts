import { randomUUID } from 'node:crypto';
import { withClient } from '@platform/testing';
import { checked, insertCustomer } from './applications-helpers';
import type { Env, LendingFixture } from './lending-fixture';

/** A product body; `over` replaces fields. */
export function productBody(over: Record<string, unknown> = {}) {
  return {
    code: `CASH_${randomUUID().slice(0, 8)}`,
    name: 'Cash loan',
    currency: 'KZT',
    minAmount: 100_000,
    maxAmount: 5_000_000,
    minTerm: 3,
    maxTerm: 36,
    annualRate: '24',
    frequency: 'monthly',
    scheduleType: 'annuity',
    dayCount: '30/360',
    ...over,
  };
}

export interface LoanView {
  id: string;
  status: string;
  statusName: string;
  principal: number;
  termCount: number;
  annualRate: string;
  originationFee: number;
  principalOutstanding: number;
  nextDueDate: string | null;
  daysPastDue: number;
  disbursedOn: string | null;
  closedOn: string | null;
  allowedMoves: { action: string; to: string }[];
}

export interface InstalmentView {
  id: string;
  number: number;
  dueDate: string;
  periodStart: string;
  principal: number;
  interest: number;
  fees: number;
  total: number;
  balanceAfter: number;
  paidPrincipal: number;
  paidInterest: number;
  paidFees: number;
  remaining: number;
  status: string;
}

export interface PaymentView {
  transactionId: string | null;
  amount: number;
  valueDate: string;
  mode: string;
  parts: { component: string; componentName: string; debt: number; amount: number }[];
  overpayment: number;
  rule: string;
  ruleText: string;
  scheduleChanged: boolean;
  loanStatus: string;
  balances: BalancesView;
}

export interface BalancesView {
  principalOutstanding: number;
  overduePrincipal: number;
  interestReceivable: number;
  overdueInterest: number;
  interestAdvance: number;
  penaltyReceivable: number;
  feeReceivable: number;
  overpayment: number;
  cash: number;
  totalOutstanding: number;
  balanced: boolean;
  accounts: { account: string; debit: number; credit: number; balance: number }[];
}

export const partsOf = (p: PaymentView) => Object.fromEntries(p.parts.map((x) => [x.component, x.amount]));

/** A call that must succeed; its value. */
export async function ok<T>(p: Promise<{ status: number; body: Env<T> }>, status = 200): Promise<T> {
  const r = await p;
  if (r.status !== status) throw new Error(`expected ${status}, got ${r.status}: ${JSON.stringify(r.body)}`);
  return r.body.value;
}

/** Headers plus an Idempotency-Key (a fresh one unless given). */
export const idem = (headers: Record<string, string>, key: string = randomUUID()) => ({
  ...headers,
  'Idempotency-Key': key,
});

/** An application of a new customer approved by the rules (1 000 000 KZT over 12 months). */
export async function approvedApplication(s: LendingFixture, headers: Record<string, string>, org: string) {
  const customerId = await insertCustomer(s, org);
  const app = await checked(s, headers, customerId, '900101300500');
  if (app.status !== 'approved') throw new Error(`application is ${app.status}`);
  return app.id;
}

/** A product, an approved application and a loan made from them (status created). */
export async function createdLoan(
  s: LendingFixture,
  headers: Record<string, string>,
  org: string,
  product: Record<string, unknown> = {},
  loan: Record<string, unknown> = {},
): Promise<LoanView> {
  const p = await ok<{ id: string }>(
    s.call(headers, 'POST', '/Loans/CreateLoanProduct', productBody(product)),
    201,
  );
  const applicationId = await approvedApplication(s, headers, org);
  return ok<LoanView>(
    s.call(headers, 'POST', '/Loans/CreateLoan', { applicationId, productId: p.id, ...loan }),
    201,
  );
}

/** A loan disbursed on `disbursedOn` (default today). */
export async function activeLoan(
  s: LendingFixture,
  headers: Record<string, string>,
  org: string,
  opts: {
    product?: Record<string, unknown>;
    loan?: Record<string, unknown>;
    disbursedOn?: string;
    firstDueDate?: string;
  } = {},
): Promise<{ loan: LoanView; schedule: InstalmentView[]; transactionId: string }> {
  const created = await createdLoan(s, headers, org, opts.product, opts.loan);
  return ok(
    s.call(idem(headers), 'POST', '/Loans/DisburseLoan', {
      loanId: created.id,
      ...(opts.disbursedOn ? { disbursedOn: opts.disbursedOn } : {}),
      ...(opts.firstDueDate ? { firstDueDate: opts.firstDueDate } : {}),
    }),
  );
}

/** Every ledger transaction of the database whose debits differ from its credits (expected none). */
export function unbalancedTransactions(s: LendingFixture): Promise<string[]> {
  return withClient(s.db.url, async (c) => {
    const r = await c.query<{ id: string }>(
      `SELECT t.id FROM lending.ledger_transactions t JOIN lending.ledger_lines l ON l.transaction_id = t.id
        GROUP BY t.id HAVING sum(l.debit) <> sum(l.credit) OR count(*) < 2`,
    );
    return r.rows.map((x) => x.id);
  });
}

/** How many ledger transactions of a kind a loan has. */
export function transactionsOf(s: LendingFixture, loanId: string, kind?: string): Promise<number> {
  return withClient(s.db.url, async (c) => {
    const r = await c.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM lending.ledger_transactions WHERE loan_id = $1 AND ($2::text IS NULL OR kind = $2)`,
      [loanId, kind ?? null],
    );
    return r.rows[0].n;
  });
}

/** A calendar day `days` from today (UTC), `YYYY-MM-DD`. */
export function dayFromToday(days: number): string {
  return new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);
}

/** `months` calendar months before today, clamped like the schedule's months (day kept when it exists). */
export function monthsAgo(months: number, day = 15): string {
  const now = new Date();
  const d = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - months, day));
  return d.toISOString().slice(0, 10);
}
