import type { LendingEventOf, LendingEventType } from '@platform/messaging';
import { principalOwed, type AccountBalances } from '../ledger/balances';
import type { PostingLine } from '../ledger/posting';
import { costOfCreditOf } from '../cost-of-credit';
import type { Loan } from '../loan.entity';
import { overdueOf } from '../loan-views';
import { DEBT_COMPONENTS, type DebtComponent } from '../math';
import { isSettlementLine } from '../payments/payment-booking';
import type { PositionRow } from '../payments/payment-plan';
import { bureauUidOf } from './bureau-uid';
import type { LoanFact } from './loan-facts';

/** The fields LoanEvents fills in itself on every event. */
type Filled = 'eventType' | 'schemaVersion' | 'organizationId' | 'occurredAt';
export type EventBody<T extends LendingEventType> = Omit<LendingEventOf<T>, Filled>;

/** One event to write: its type and its payload without the fields every event shares. */
export interface LoanEvent<T extends LendingEventType = LendingEventType> {
  type: T;
  body: EventBody<T>;
}

export const ev = <T extends LendingEventType>(type: T, body: EventBody<T>): LoanEvent =>
  ({ type, body }) as unknown as LoanEvent;

export type EventPosting = { debit: string; credit: string; amount: number };
type Postings = LendingEventOf<'lending.accounting.loan-disbursed'>['postings'];
/** An accounting event's postings: the pairs that move money (zero amounts left out). */
export const postingsOf = (p: EventPosting[]) => p.filter((x) => x.amount > 0) as unknown as Postings;

const remaining = (r: PositionRow) => ({
  principal: Math.max(0, r.principal - r.paid.principal),
  interest: Math.max(0, r.interest - r.paid.interest),
});
const sumOf = (xs: number[]) => xs.reduce((s, x) => s + x, 0);

/** The debt as the bureau formats report it, right after the event, on `date`. */
export function bureauBalances(rows: PositionRow[], b: AccountBalances, date: string) {
  const overdue = rows.filter((r) => r.dueDate < date);
  const principal = Math.max(0, principalOwed(b));
  const overduePrincipal = Math.min(principal, sumOf(overdue.map((r) => remaining(r).principal)));
  const overdueInterest = sumOf(overdue.map((r) => remaining(r).interest));
  const interest = Math.max(
    overdueInterest,
    Math.max(0, b.interest_receivable) + Math.max(0, b.overdue_interest),
  );
  const fees = Math.max(0, b.fee_receivable);
  const penalties = Math.max(0, b.penalty_receivable);
  return {
    principal,
    interest,
    fees,
    penalties,
    overduePrincipal,
    overdueInterest,
    total: principal + interest + fees + penalties,
    daysPastDue: overdueOf(rows, date).days,
  };
}

/** The regular instalment of an annuity (its most frequent principal + interest), else null. */
export function instalmentAmount(loan: Loan, rows: PositionRow[]): number | null {
  if (loan.scheduleType !== 'annuity' || !rows.length) return null;
  const counts = new Map<number, number>();
  for (const r of rows) counts.set(r.principal + r.interest, (counts.get(r.principal + r.interest) ?? 0) + 1);
  return [...counts].sort((x, y) => y[1] - x[1] || y[0] - x[0])[0][0];
}

/** What the bureau's rate fields accept (libs/messaging `rate`): at most four integer digits. */
const EVENT_RATE = /^(0|[1-9][0-9]{0,3})(\.[0-9]{1,10})?$/;

/**
 * The full cost of credit (353-FZ art. 6) of `principal` lent on `from` and repaid by `rows`: the ПСК
 * to three decimals, exact (math/cost-of-credit.ts), and the cost in money (payments less principal).
 * A loan with no rate the field can carry (no positive root, or 10 000% and more) reports its nominal rate.
 */
export function costOf(loan: Loan, principal: number, from: string, rows: PositionRow[]) {
  const flows = [
    { date: from, amount: -principal },
    ...rows.map((r) => ({ date: r.dueDate, amount: r.principal + r.interest + r.fees })),
  ];
  const cost = costOfCreditOf(flows, loan.frequency, 'schedule');
  return {
    fullCostRate: cost && EVENT_RATE.test(cost.fullCostRate) ? cost.fullCostRate : loan.annualRate,
    fullCostAmount: Math.max(0, sumOf(flows.map((f) => f.amount))),
  };
}

/** What names the borrower and the agreement on every bureau event. */
export function bureauCommon(loan: Loan, eventDate: string) {
  return {
    customerId: loan.customerId,
    bureauUid: bureauUidOf(loan.applicationId),
    eventDate,
    agreementId: loan.id,
    agreementType: 'loan' as const,
    loanId: loan.id,
  };
}

/** What names the agreement and the operation on every accounting event. */
export function accountingCommon(loan: Loan, operationId: string, businessDate: string) {
  return {
    agreementId: loan.id,
    agreementType: 'loan' as const,
    loanId: loan.id,
    operationId,
    businessDate,
    currency: loan.currency,
  };
}

const zeroParts = () =>
  Object.fromEntries(DEBT_COMPONENTS.map((c) => [c, 0])) as Record<DebtComponent, number>;
const EARLY: readonly DebtComponent[] = ['currentInterest', 'currentPrincipal'];

/**
 * The bureau and accounting events of a loan fact (docs/lending/loans.md, "Events"), in the order they
 * are written. Pure: `today` is the ledger's open accounting day.
 */
export function eventsOf(fact: LoanFact, today: string): LoanEvent[] {
  switch (fact.kind) {
    case 'disbursed':
      return disbursed(fact, today);
    case 'payment':
      return payment(fact, today);
    case 'reversal':
      return reversal(fact, today);
    case 'written_off':
      return writtenOff(fact, today);
    case 'cancelled':
      // The contract is reported when it is paid out; one cancelled before that was never reported.
      return [];
  }
}

function disbursed(f: Extract<LoanFact, { kind: 'disbursed' }>, today: string): LoanEvent[] {
  const { loan, transaction: t, rows } = f;
  const on = t.valueDate;
  const out = [
    ev('lending.bureau.loan-contract-concluded', {
      ...bureauCommon(loan, on),
      applicationId: loan.applicationId,
      amount: loan.principal,
      currency: loan.currency,
      nominalRate: loan.annualRate,
      ...costOf(loan, loan.principal, on, rows),
      scheduleType: loan.scheduleType,
      frequency: loan.frequency,
      firstPaymentDate: rows[0].dueDate,
      maturityDate: rows[rows.length - 1].dueDate,
      instalmentAmount: instalmentAmount(loan, rows),
    }),
    ev('lending.bureau.loan-disbursed', {
      ...bureauCommon(loan, on),
      amount: loan.principal,
      currency: loan.currency,
      balances: bureauBalances(rows, f.balances, on),
    }),
    ev('lending.accounting.loan-disbursed', {
      ...accountingCommon(loan, t.id, today),
      disbursementId: t.id,
      amount: loan.principal,
      postings: postingsOf([{ debit: 'loan_principal', credit: 'cash', amount: loan.principal }]),
    }),
  ];
  if (loan.originationFee > 0)
    out.push(
      ev('lending.accounting.fee-charged', {
        ...accountingCommon(loan, t.id, today),
        feeType: 'origination',
        amount: loan.originationFee,
        postings: postingsOf([
          { debit: 'fee_receivable', credit: 'fee_income', amount: loan.originationFee },
        ]),
      }),
    );
  return out;
}

function payment(f: Extract<LoanFact, { kind: 'payment' }>, today: string): LoanEvent[] {
  const { loan, transaction: t, parts, lines } = f;
  const on = t.valueDate;
  const early = f.mode !== 'regular';
  const prepaid = lines.some(
    (l) => l.account === 'loan_principal' && l.credit > 0 && l.instalmentId === null,
  );
  const balances = bureauBalances(f.rows, f.balances, on);
  const next = f.rows.find(
    (r) => r.principal + r.interest + r.fees > r.paid.principal + r.paid.interest + r.paid.fees,
  );
  const kind =
    early && f.closed
      ? 'early-full'
      : early && prepaid
        ? 'early-partial'
        : parts.overdueInterest + parts.overduePrincipal > 0
          ? 'overdue'
          : 'scheduled';
  const out: LoanEvent[] = [
    ev('lending.bureau.payment-received', {
      ...bureauCommon(loan, on),
      paymentId: t.id,
      kind,
      amount: t.amount,
      currency: loan.currency,
      paidToPrincipal: parts.overduePrincipal + parts.currentPrincipal,
      paidToInterest: parts.overdueInterest + parts.currentInterest,
      paidToOther: parts.fees + parts.penalties,
      nextPaymentDate: next?.dueDate ?? null,
      nextPaymentAmount: next
        ? next.principal +
          next.interest +
          next.fees -
          next.paid.principal -
          next.paid.interest -
          next.paid.fees
        : null,
      balances,
    }),
  ];
  const before = overdueOf(f.rowsBefore, on);
  if (before.since && !overdueOf(f.rows, on).since)
    out.push(
      ev('lending.bureau.overdue-repaid', {
        ...bureauCommon(loan, on),
        overdueSince: before.since,
        daysPastDue: before.days,
        currency: loan.currency,
        balances,
      }),
    );
  if (f.closed)
    out.push(
      ev('lending.bureau.loan-repaid', {
        ...bureauCommon(loan, on),
        early: on < (f.rowsBefore.at(-1)?.dueDate ?? on),
        lastPaymentId: t.id,
        currency: loan.currency,
        balances,
      }),
    );
  else if (f.scheduleChanged)
    out.push(
      ev('lending.bureau.terms-changed', {
        ...bureauCommon(loan, on),
        reason: f.mode === 'reduceTerm' ? 'early-repayment-reduce-term' : 'early-repayment-reduce-instalment',
        nominalRate: loan.annualRate,
        fullCostRate: costOf(
          loan,
          Math.max(0, principalOwed(f.balances)),
          on,
          f.rows.filter((r) => r.dueDate > on),
        ).fullCostRate,
        currency: loan.currency,
        maturityDate: f.rows.at(-1)?.dueDate ?? on,
        instalmentAmount: instalmentAmount(
          loan,
          f.rows.filter((r) => r.dueDate > on),
        ),
        nextPaymentDate: next?.dueDate ?? null,
      }),
    );

  // Accounting: the receipt, then its application (what an early repayment repaid ahead on its own).
  const common = accountingCommon(loan, t.id, today);
  out.push(
    ev('lending.accounting.payment-received', {
      ...common,
      paymentId: t.id,
      amount: t.amount,
      valueDate: on,
      channel: f.channel,
      postings: postingsOf([{ debit: 'cash', credit: 'unallocated_payments', amount: t.amount }]),
    }),
  );
  const applied = (l: PostingLine) => ({
    debit: 'unallocated_payments',
    credit: l.account,
    amount: l.credit,
  });
  const settling = lines.filter((l) => l.credit > 0 && l.component !== null);
  const isEarly = (l: PostingLine) => early && prepaid && EARLY.includes(l.component as DebtComponent);
  const allocated = settling.filter((l) => !isEarly(l));
  if (allocated.length) {
    const allocation = zeroParts();
    for (const l of allocated) allocation[l.component as DebtComponent] += l.credit;
    out.push(
      ev('lending.accounting.payment-allocated', {
        ...common,
        paymentId: t.id,
        amount: sumOf(allocated.map((l) => l.credit)),
        allocation,
        allocationOrder: f.order,
        allocationRule: f.rule,
        postings: postingsOf(allocated.map(applied)),
      }),
    );
  }
  const ahead = settling.filter(isEarly);
  if (ahead.length)
    out.push(
      ev('lending.accounting.early-repayment-applied', {
        ...common,
        paymentId: t.id,
        amount: sumOf(ahead.map((l) => l.credit)),
        principalAmount: sumOf(ahead.filter((l) => l.account === 'loan_principal').map((l) => l.credit)),
        interestAmount: sumOf(ahead.filter((l) => l.account !== 'loan_principal').map((l) => l.credit)),
        option: f.closed ? 'full' : f.mode === 'reduceTerm' ? 'reduce-term' : 'reduce-instalment',
        newMaturityDate: f.closed ? null : (f.rows.at(-1)?.dueDate ?? null),
        newInstalmentAmount: f.closed
          ? null
          : instalmentAmount(
              loan,
              f.rows.filter((r) => r.dueDate > on),
            ),
        postings: postingsOf(ahead.map(applied)),
      }),
    );
  if (f.overpayment > 0)
    out.push(
      ev('lending.accounting.overpayment-recorded', {
        ...common,
        paymentId: t.id,
        amount: f.overpayment,
        postings: postingsOf([
          { debit: 'unallocated_payments', credit: 'overpayment', amount: f.overpayment },
        ]),
      }),
    );
  out.push(...settlementEvents(loan, t.id, lines, today, on, 'other'));
  if (f.closed)
    out.push(
      ev('lending.accounting.loan-closed', {
        ...common,
        reason: 'repaid',
        closedOn: on,
        postings: postingsOf([]),
      }),
    );
  return out;
}

function reversal(f: Extract<LoanFact, { kind: 'reversal' }>, today: string): LoanEvent[] {
  const { loan, transaction: t, reversed, lines } = f;
  const back = lines.filter((l) => l.debit > 0 && l.account !== 'cash' && !isSettlementLine(l));
  return [
    ev('lending.bureau.payment-reversed', {
      ...bureauCommon(loan, today),
      paymentId: reversed.id,
      amount: reversed.amount,
      currency: loan.currency,
      reason: f.reasonCode,
      balances: bureauBalances(f.rows, f.balances, today),
    }),
    ev('lending.accounting.payment-reversed', {
      ...accountingCommon(loan, t.id, today),
      paymentId: reversed.id,
      amount: reversed.amount,
      reason: f.reasonCode,
      reversesOperationId: reversed.id,
      postings: postingsOf([
        ...back.map((l) => ({ debit: l.account, credit: 'unallocated_payments', amount: l.debit })),
        { debit: 'unallocated_payments', credit: 'cash', amount: reversed.amount },
        { debit: 'interest_receivable', credit: 'interest_advance', amount: f.reclassified },
      ]),
    }),
    ...settlementEvents(loan, t.id, lines, today, reversed.valueDate, 'payment-reversed'),
  ];
}

/**
 * The interest a closing payment settled against income (payment-booking's closingSettlement), or its
 * reversal undid: one adjustment per interest account it touched.
 */
function settlementEvents(
  loan: Loan,
  operationId: string,
  lines: PostingLine[],
  today: string,
  on: string,
  reason: 'other' | 'payment-reversed',
): LoanEvent[] {
  return lines
    .filter((l) => isSettlementLine(l) && l.account !== 'interest_income')
    .map((l) => {
      const increase = l.debit > 0;
      const amount = increase ? l.debit : l.credit;
      return ev('lending.accounting.interest-accrual-adjusted', {
        ...accountingCommon(loan, operationId, today),
        periodFrom: on,
        periodTo: on,
        direction: increase ? 'increase' : 'decrease',
        amount,
        reason,
        postings: postingsOf([
          increase
            ? { debit: l.account, credit: 'interest_income', amount }
            : { debit: 'interest_income', credit: l.account, amount },
        ]),
      });
    });
}

/** What a write-off takes off the books (its transaction's details hold each account's amount). */
const WRITTEN_OFF_ACCOUNTS = [
  'loan_principal',
  'overdue_principal',
  'interest_receivable',
  'overdue_interest',
  'penalty_receivable',
  'fee_receivable',
] as const;
type WrittenOffAccount = (typeof WRITTEN_OFF_ACCOUNTS)[number];

function writtenOff(f: Extract<LoanFact, { kind: 'written_off' }>, today: string): LoanEvent[] {
  if (!f.transaction) return [];
  const { loan, transaction: t } = f;
  const d = t.details as Partial<Record<WrittenOffAccount, number>>;
  const owed = Object.fromEntries(WRITTEN_OFF_ACCOUNTS.map((a) => [a, d[a] ?? 0])) as Record<
    WrittenOffAccount,
    number
  >;
  return [
    ev('lending.accounting.loan-written-off', {
      ...accountingCommon(loan, t.id, today),
      writeOffId: t.id,
      writtenOff: {
        fees: owed.fee_receivable,
        penalties: owed.penalty_receivable,
        overdueInterest: owed.overdue_interest,
        overduePrincipal: owed.overdue_principal,
        currentInterest: owed.interest_receivable,
        currentPrincipal: owed.loan_principal,
      },
      amount: t.amount,
      reason: f.reasonCode,
      postings: postingsOf([
        ...WRITTEN_OFF_ACCOUNTS.map((a) => ({ debit: 'credit_losses', credit: a, amount: owed[a] })),
        // Still claimed: kept off the balance sheet.
        { debit: 'written_off_debt', credit: 'off_balance_contra', amount: t.amount },
      ]),
    }),
  ];
}
