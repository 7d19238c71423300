import type { Fields, PayloadOf } from '../json-schema';
import {
  agreementIdField,
  agreementTypeField,
  componentAmounts,
  count,
  currencyField,
  date,
  eventTypeField,
  instant,
  lendingEventType,
  loanIdField,
  money,
  nullableDate,
  nullableMoney,
  nullableText,
  occurredAtField,
  oneOf,
  organizationIdField,
  positiveMoney,
  rate,
  schemaVersionField,
  text,
  uuid,
  DEBT_COMPONENTS,
  SCHEMA_VERSION,
} from './lending.fields';

/**
 * The 33 event types an accounting system receives (docs/lending/events.md, "Accounting events"):
 * every money operation of the loan ledger as balanced postings, plus the business day's close. The
 * same events make the daily accounting file.
 */
export const LENDING_ACCOUNTING_TOPIC = 'lending.contract.accounting-events.v1';

export type AccountType = 'asset' | 'contra-asset' | 'liability' | 'income' | 'expense' | 'off-balance';

/** The account codes, in the order of the chart. */
export const ACCOUNTING_ACCOUNT_CODES = [
  'cash',
  'loan_principal',
  'overdue_principal',
  'interest_receivable',
  'overdue_interest',
  'deferred_interest',
  'penalty_receivable',
  'fee_receivable',
  'assignment_receivable',
  'loan_loss_provision',
  'unallocated_payments',
  'interest_advance',
  'overpayment',
  'interest_income',
  'penalty_income',
  'fee_income',
  'provision_income',
  'recovery_income',
  'assignment_gain',
  'rounding_difference',
  'provision_expense',
  'credit_losses',
  'waiver_expense',
  'assignment_loss',
  'unused_credit_limit',
  'written_off_debt',
  'off_balance_contra',
] as const;
export type AccountingLedgerAccount = (typeof ACCOUNTING_ACCOUNT_CODES)[number];

/**
 * The accounts a posting names: the lending ledger's chart (apps/lending/src/loans/ledger) and what a
 * general ledger needs on top (overdue, provisions, assignment, off-balance memo accounts). The
 * accounting system maps each to its own chart. `off-balance` accounts only pair with each other.
 */
export const ACCOUNTING_LEDGER_ACCOUNTS: Readonly<
  Record<AccountingLedgerAccount, { readonly type: AccountType; readonly description: string }>
> = {
  cash: {
    type: 'asset',
    description: "The lender's settlement money: out with disbursements and refunds, in with payments.",
  },
  loan_principal: { type: 'asset', description: 'Principal owed and not yet past due.' },
  overdue_principal: { type: 'asset', description: 'Principal past its due date.' },
  interest_receivable: { type: 'asset', description: 'Interest accrued and not yet past due.' },
  overdue_interest: { type: 'asset', description: 'Interest past its due date.' },
  deferred_interest: { type: 'asset', description: 'Interest of instalments a payment holiday deferred.' },
  penalty_receivable: { type: 'asset', description: 'Penalties accrued and not yet paid.' },
  fee_receivable: { type: 'asset', description: 'Fees charged and not yet paid.' },
  assignment_receivable: {
    type: 'asset',
    description: 'The price an assignee owes for rights assigned to it.',
  },
  loan_loss_provision: { type: 'contra-asset', description: 'Provision for expected credit losses.' },
  unallocated_payments: { type: 'liability', description: 'Money received and not yet applied to a debt.' },
  interest_advance: { type: 'liability', description: 'Interest paid before it was accrued.' },
  overpayment: {
    type: 'liability',
    description: "Money beyond every debt: the borrower's, until applied or refunded.",
  },
  interest_income: { type: 'income', description: 'Interest earned.' },
  penalty_income: { type: 'income', description: 'Penalties earned.' },
  fee_income: { type: 'income', description: 'Fees earned.' },
  provision_income: { type: 'income', description: 'Provisions released.' },
  recovery_income: { type: 'income', description: 'Money recovered on debt already written off.' },
  assignment_gain: { type: 'income', description: 'Assignment price above the debt assigned.' },
  rounding_difference: {
    type: 'income',
    description: 'Sub-unit residues settled when a loan closes (either side).',
  },
  provision_expense: { type: 'expense', description: 'Provisions charged.' },
  credit_losses: { type: 'expense', description: 'Debt written off beyond its provision, or forgiven.' },
  waiver_expense: { type: 'expense', description: 'Fees and penalties waived.' },
  assignment_loss: { type: 'expense', description: 'Debt assigned above its price.' },
  unused_credit_limit: { type: 'off-balance', description: 'What may still be drawn under credit lines.' },
  written_off_debt: { type: 'off-balance', description: 'Debt written off and still claimed.' },
  off_balance_contra: { type: 'off-balance', description: 'The other side of every off-balance entry.' },
};

const account = (description: string) =>
  ({
    type: 'string',
    enum: ACCOUNTING_ACCOUNT_CODES,
    description: `${description} One of the chart in docs/lending/events.md.`,
  }) as const;

const posting = {
  type: 'object',
  additionalProperties: false,
  required: ['debit', 'credit', 'amount'],
  properties: {
    debit: account('The account debited.'),
    credit: account('The account credited.'),
    amount: positiveMoney('The amount of both sides.'),
  },
  description: 'One debit and one credit of the same amount.',
} as const;

/** The event's ledger lines as debit/credit pairs, so every event balances by construction. */
const postings = <const N extends number>(minItems: N) =>
  ({
    type: 'array',
    minItems,
    maxItems: 200,
    items: posting,
    description:
      'The postings of the event, each a debit/credit pair in `currency`, in the order written (a ' +
      'multi-leg entry is split into pairs).' +
      (minItems === 0 ? ' Empty when the event moved no money.' : ''),
  }) as const;

const agreementFields = <const T extends string>(type: T) =>
  ({
    eventType: eventTypeField(type),
    schemaVersion: schemaVersionField,
    organizationId: organizationIdField,
    agreementId: agreementIdField,
    agreementType: agreementTypeField,
    loanId: loanIdField,
    operationId: uuid(
      'The money operation (one ledger transaction) that produced the event; the events of one ' +
        'operation share it, and an idempotent repeat of the operation produces none.',
    ),
    businessDate: date(
      "The accounting day the postings belong to: the ledger's open day when written. A closed day " +
        'gets nothing more; a later correction goes to the open day.',
    ),
    occurredAt: occurredAtField,
    currency: currencyField,
  }) as const;

type AgreementFields<T extends string> = ReturnType<typeof agreementFields<T>>;

/** An accounting event of a loan or credit line agreement, keyed by the agreement. */
function accountingEvent<const N extends string, const F extends Fields>(
  name: N,
  d: {
    readonly description: string;
    readonly schema: F;
    readonly example: NoInfer<PayloadOf<AgreementFields<`lending.accounting.${N}`> & F>>;
  },
) {
  const eventType = `lending.accounting.${name}` as const;
  return lendingEventType<PayloadOf<AgreementFields<typeof eventType> & F>>({
    topic: LENDING_ACCOUNTING_TOPIC,
    eventType,
    aggregateType: 'lending.agreement',
    key: 'agreementId',
    description: d.description,
    schema: { ...agreementFields(eventType), ...d.schema },
    example: d.example,
  });
}

// Example values: one organization, one loan of 250,000.00 RUB at 19.9%, one credit line with a tranche.
const ORG = 'org-a';
const LOAN = 'b3c4d5e6-f7a8-4b9c-8d0e-1f2a3b4c5d6e';
const LINE = 'c4d5e6f7-a8b9-4c0d-9e1f-2a3b4c5d6e7f';
const TRANCHE = 'd5e6f7a8-b9c0-4d1e-8f2a-3b4c5d6e7f80';
const PAYMENT = '3d4e5f6a-7b8c-4d9e-8f0a-1b2c3d4e5f6a';
const PAYMENT_OPERATION = 'e6f7a8b9-c0d1-4e2f-9a3b-4c5d6e7f8091';

let operationCounter = 0;
/** A distinct, fixed operation id per example (the documents must come out the same on every run). */
const nextOperation = () => `f0000000-0000-4000-8000-${String(++operationCounter).padStart(12, '0')}`;

const exLoan = <const T extends string>(type: T, businessDate: string, occurredAt: string) =>
  ({
    eventType: `lending.accounting.${type}`,
    schemaVersion: SCHEMA_VERSION,
    organizationId: ORG,
    agreementId: LOAN,
    agreementType: 'loan',
    loanId: LOAN,
    operationId: nextOperation(),
    businessDate,
    occurredAt,
    currency: 'RUB',
  }) as const;
const exLine = <const T extends string>(
  type: T,
  businessDate: string,
  occurredAt: string,
  loanId: string | null,
) =>
  ({
    ...exLoan(type, businessDate, occurredAt),
    agreementId: LINE,
    agreementType: 'credit-line',
    loanId,
  }) as const;

const noComponents = {
  fees: 0,
  penalties: 0,
  overdueInterest: 0,
  overduePrincipal: 0,
  currentInterest: 0,
  currentPrincipal: 0,
};

const feeType = oneOf(['origination', 'servicing', 'late-payment', 'early-repayment', 'other'], 'Which fee.');
const allocationFields = {
  allocation: componentAmounts(
    'How the amount was split across the debt components; the parts sum to `amount`.',
  ),
  allocationOrder: {
    type: 'array',
    minItems: DEBT_COMPONENTS.length,
    maxItems: DEBT_COMPONENTS.length,
    items: oneOf(DEBT_COMPONENTS, 'A debt component.'),
    description: "The product's allocation order that produced the split, each component once.",
  },
  allocationRule: text('Stable id of the rule, e.g. `allocation.order:fees>penalties>...`.', 200),
} as const;
const DEFAULT_ORDER = [...DEBT_COMPONENTS];
const DEFAULT_RULE = `allocation.order:${DEBT_COMPONENTS.join('>')}`;

// -- disbursement and charges -----------------------------------------------------------------------

const LoanDisbursed = accountingEvent('loan-disbursed', {
  description:
    'A loan or a credit-line tranche was paid out. For a tranche the unused limit shrinks by the same ' +
    'amount (off-balance pair).',
  schema: {
    disbursementId: uuid('The disbursement.'),
    amount: positiveMoney('The amount paid out.'),
    postings: postings(1),
  },
  example: {
    ...exLoan('loan-disbursed', '2026-11-05', '2026-11-05T10:04:11.500Z'),
    disbursementId: '0b1c2d3e-4f5a-4b6c-8d7e-9f0a1b2c3d4e',
    amount: 25000000,
    postings: [{ debit: 'loan_principal', credit: 'cash', amount: 25000000 }],
  },
});

const DisbursementReversed = accountingEvent('disbursement-reversed', {
  description:
    "A disbursement came back (the borrower's bank returned it, or it was cancelled or booked in error).",
  schema: {
    disbursementId: uuid('The disbursement reversed.'),
    amount: positiveMoney('The amount returned.'),
    reason: oneOf(['returned-by-bank', 'cancelled-by-borrower', 'booked-in-error'], 'Why.'),
    reversesOperationId: uuid('The operation of the original disbursement.'),
    postings: postings(1),
  },
  example: {
    ...exLoan('disbursement-reversed', '2026-11-06', '2026-11-06T09:00:00.000Z'),
    disbursementId: '0b1c2d3e-4f5a-4b6c-8d7e-9f0a1b2c3d4e',
    amount: 25000000,
    reason: 'returned-by-bank',
    reversesOperationId: 'f0000000-0000-4000-8000-000000000001',
    postings: [{ debit: 'cash', credit: 'loan_principal', amount: 25000000 }],
  },
});

const FeeCharged = accountingEvent('fee-charged', {
  description: 'A fee was charged to the borrower (origination, servicing, late payment, early repayment).',
  schema: {
    feeType,
    amount: positiveMoney('The fee.'),
    postings: postings(1),
  },
  example: {
    ...exLoan('fee-charged', '2026-11-05', '2026-11-05T10:04:11.500Z'),
    feeType: 'origination',
    amount: 250000,
    postings: [{ debit: 'fee_receivable', credit: 'fee_income', amount: 250000 }],
  },
});

const FeeWaived = accountingEvent('fee-waived', {
  description: 'A fee charged earlier was waived, in full or in part.',
  schema: {
    feeType,
    amount: positiveMoney('The amount waived.'),
    reason: text('Why, for people.'),
    postings: postings(1),
  },
  example: {
    ...exLoan('fee-waived', '2026-11-20', '2026-11-20T12:00:00.000Z'),
    feeType: 'origination',
    amount: 250000,
    reason: 'Campaign: no origination fee for returning customers.',
    postings: [{ debit: 'waiver_expense', credit: 'fee_receivable', amount: 250000 }],
  },
});

// -- accruals ---------------------------------------------------------------------------------------

// Additive: the day counts of issue 23 joined the first three (a consumer should accept new values).
const dayCount = oneOf(
  ['30/360', 'ACT/365F', 'ACT/ACT', '30/360 US', '30E/360', '30E/360 ISDA', 'ACT/360'],
  "The product's day-count convention.",
);

const InterestAccrued = accountingEvent('interest-accrued', {
  description:
    "One day's interest was accrued (the daily job: at most once per loan and day), to " +
    '`interest_receivable`, during a payment holiday too (the deferred interest is due with the first ' +
    'instalment after it).',
  schema: {
    accrualDate: date('The day the interest is for.'),
    amount: money('The interest of that day, rounded; the rounding residue is carried to the next day.'),
    principalBase: money('The principal the interest was computed on.'),
    nominalRate: rate('The rate applied.'),
    dayCount,
    postings: postings(0),
  },
  example: {
    ...exLoan('interest-accrued', '2026-11-06', '2026-11-06T00:02:10.000Z'),
    accrualDate: '2026-11-05',
    amount: 13630,
    principalBase: 25000000,
    nominalRate: '19.9',
    dayCount: 'ACT/365F',
    postings: [{ debit: 'interest_receivable', credit: 'interest_income', amount: 13630 }],
  },
});

const InterestAccrualAdjusted = accountingEvent('interest-accrual-adjusted', {
  description:
    'Interest accrued over past days was recomputed (a back-valued payment, a reversed payment, a rate ' +
    'correction) and the difference posted, instead of re-posting each day.',
  schema: {
    periodFrom: date('First day recomputed.'),
    periodTo: date('Last day recomputed.'),
    direction: oneOf(['increase', 'decrease'], 'Whether accrued interest grew or shrank.'),
    amount: positiveMoney('The difference.'),
    reason: oneOf(['back-valued-payment', 'payment-reversed', 'rate-correction', 'other'], 'Why.'),
    postings: postings(1),
  },
  example: {
    ...exLoan('interest-accrual-adjusted', '2026-12-08', '2026-12-08T00:02:10.000Z'),
    periodFrom: '2026-12-03',
    periodTo: '2026-12-07',
    direction: 'decrease',
    amount: 1180,
    reason: 'back-valued-payment',
    postings: [{ debit: 'interest_income', credit: 'interest_receivable', amount: 1180 }],
  },
});

const PenaltyAccrued = accountingEvent('penalty-accrued', {
  description: "One day's penalty on overdue debt was accrued (the daily job, once per loan and day).",
  schema: {
    accrualDate: date('The day the penalty is for.'),
    amount: money('The penalty of that day, rounded.'),
    overdueBase: money('The overdue amount it was computed on.'),
    penaltyRate: rate('The penalty rate applied.'),
    daysPastDue: count('Days past due on that day.', 1),
    postings: postings(0),
  },
  example: {
    ...exLoan('penalty-accrued', '2027-01-07', '2027-01-07T00:02:10.000Z'),
    accrualDate: '2027-01-06',
    amount: 697,
    overdueBase: 1271810,
    penaltyRate: '20',
    daysPastDue: 1,
    postings: [{ debit: 'penalty_receivable', credit: 'penalty_income', amount: 697 }],
  },
});

const PenaltyWaived = accountingEvent('penalty-waived', {
  description: 'Accrued penalties were waived, in full or in part.',
  schema: {
    amount: positiveMoney('The amount waived.'),
    reason: text('Why, for people.'),
    postings: postings(1),
  },
  example: {
    ...exLoan('penalty-waived', '2027-01-20', '2027-01-20T10:00:00.000Z'),
    amount: 9758,
    reason: 'Payment delayed by the bank, not the borrower.',
    postings: [{ debit: 'waiver_expense', credit: 'penalty_receivable', amount: 9758 }],
  },
});

// -- due dates --------------------------------------------------------------------------------------

const PrincipalOverdue = accountingEvent('principal-overdue', {
  description: "An instalment's principal was not paid on its due date and moved to overdue.",
  schema: {
    instalmentNumber: count('The instalment, 1-based.', 1),
    dueDate: date('The due date missed.'),
    amount: positiveMoney('The principal now overdue.'),
    postings: postings(1),
  },
  example: {
    ...exLoan('principal-overdue', '2027-01-06', '2027-01-06T00:01:00.000Z'),
    instalmentNumber: 2,
    dueDate: '2027-01-05',
    amount: 871000,
    postings: [{ debit: 'overdue_principal', credit: 'loan_principal', amount: 871000 }],
  },
});

const InterestOverdue = accountingEvent('interest-overdue', {
  description: "An instalment's interest was not paid on its due date and moved to overdue.",
  schema: {
    instalmentNumber: count('The instalment, 1-based.', 1),
    dueDate: date('The due date missed.'),
    amount: positiveMoney('The interest now overdue.'),
    postings: postings(1),
  },
  example: {
    ...exLoan('interest-overdue', '2027-01-06', '2027-01-06T00:01:00.000Z'),
    instalmentNumber: 2,
    dueDate: '2027-01-05',
    amount: 400810,
    postings: [{ debit: 'overdue_interest', credit: 'interest_receivable', amount: 400810 }],
  },
});

// -- payments ---------------------------------------------------------------------------------------

const PaymentReceived = accountingEvent('payment-received', {
  description:
    'Money from the borrower arrived; it waits in `unallocated_payments` until allocated (in the same ' +
    'operation, by payment-allocated and friends).',
  schema: {
    paymentId: uuid('The payment.'),
    amount: positiveMoney('The amount received.'),
    valueDate: date('The day the money is credited with (interest counts from it).'),
    channel: oneOf(['bank-transfer', 'card', 'cash-desk', 'direct-debit', 'other'], 'How it was paid.'),
    postings: postings(1),
  },
  example: {
    ...exLoan('payment-received', '2026-12-05', '2026-12-05T06:15:30.000Z'),
    operationId: PAYMENT_OPERATION,
    paymentId: PAYMENT,
    amount: 1271810,
    valueDate: '2026-12-05',
    channel: 'bank-transfer',
    postings: [{ debit: 'cash', credit: 'unallocated_payments', amount: 1271810 }],
  },
});

const PaymentAllocated = accountingEvent('payment-allocated', {
  description:
    "A payment was applied to the debt components in the product's order: each part settles its " +
    'receivable.',
  schema: {
    paymentId: uuid('The payment.'),
    amount: positiveMoney('The amount allocated.'),
    ...allocationFields,
    postings: postings(1),
  },
  example: {
    ...exLoan('payment-allocated', '2026-12-05', '2026-12-05T06:15:30.000Z'),
    operationId: PAYMENT_OPERATION,
    paymentId: PAYMENT,
    amount: 1271810,
    allocation: { ...noComponents, currentInterest: 408900, currentPrincipal: 862910 },
    allocationOrder: DEFAULT_ORDER,
    allocationRule: DEFAULT_RULE,
    postings: [
      { debit: 'unallocated_payments', credit: 'interest_receivable', amount: 408900 },
      { debit: 'unallocated_payments', credit: 'loan_principal', amount: 862910 },
    ],
  },
});

const PaymentReversed = accountingEvent('payment-reversed', {
  description:
    'A payment was reversed (returned by the bank, disputed, booked in error): its allocation and its ' +
    'receipt are undone, so the debt it paid is owed again.',
  schema: {
    paymentId: uuid('The payment reversed.'),
    amount: positiveMoney('The amount reversed.'),
    reason: oneOf(['returned-by-bank', 'payer-dispute', 'booked-in-error'], 'Why.'),
    reversesOperationId: uuid('The operation that received and allocated the payment.'),
    postings: postings(1),
  },
  example: {
    ...exLoan('payment-reversed', '2026-12-07', '2026-12-07T10:20:00.000Z'),
    paymentId: PAYMENT,
    amount: 1271810,
    reason: 'returned-by-bank',
    reversesOperationId: PAYMENT_OPERATION,
    postings: [
      { debit: 'loan_principal', credit: 'unallocated_payments', amount: 862910 },
      { debit: 'interest_receivable', credit: 'unallocated_payments', amount: 408900 },
      { debit: 'unallocated_payments', credit: 'cash', amount: 1271810 },
    ],
  },
});

const EarlyRepaymentApplied = accountingEvent('early-repayment-applied', {
  description:
    'Principal was repaid ahead of schedule (partly, reducing the term or the instalment, or in full), ' +
    'with the interest accrued to the day.',
  schema: {
    paymentId: uuid('The payment.'),
    amount: positiveMoney('The amount applied.'),
    principalAmount: money('Of `amount`, principal.'),
    interestAmount: money('Of `amount`, interest accrued to the day.'),
    option: oneOf(['reduce-term', 'reduce-instalment', 'full'], "The borrower's choice."),
    newMaturityDate: nullableDate('The last due date now; null after a full repayment.'),
    newInstalmentAmount: nullableMoney('The regular instalment now; null after a full repayment.'),
    postings: postings(1),
  },
  example: {
    ...exLoan('early-repayment-applied', '2027-03-20', '2027-03-20T12:00:05.000Z'),
    paymentId: '4e5f6a7b-8c9d-4e0f-8a1b-2c3d4e5f6a70',
    amount: 5000000,
    principalAmount: 4793280,
    interestAmount: 206720,
    option: 'reduce-instalment',
    newMaturityDate: '2028-11-05',
    newInstalmentAmount: 1017450,
    postings: [
      { debit: 'unallocated_payments', credit: 'interest_receivable', amount: 206720 },
      { debit: 'unallocated_payments', credit: 'loan_principal', amount: 4793280 },
    ],
  },
});

const OverpaymentRecorded = accountingEvent('overpayment-recorded', {
  description: 'A payment exceeded everything owed: the rest is held for the borrower.',
  schema: {
    paymentId: uuid('The payment.'),
    amount: positiveMoney('The excess.'),
    postings: postings(1),
  },
  example: {
    ...exLoan('overpayment-recorded', '2028-11-05', '2028-11-05T07:00:00.000Z'),
    paymentId: '9d0e1f2a-3b4c-4d5e-8f6a-8b9c0d1e2f3a',
    amount: 1520,
    postings: [{ debit: 'unallocated_payments', credit: 'overpayment', amount: 1520 }],
  },
});

const OverpaymentApplied = accountingEvent('overpayment-applied', {
  description: 'Money held as overpayment was applied to debt that fell due.',
  schema: {
    amount: positiveMoney('The amount applied.'),
    ...allocationFields,
    postings: postings(1),
  },
  example: {
    ...exLoan('overpayment-applied', '2027-02-05', '2027-02-05T00:01:00.000Z'),
    amount: 30000,
    allocation: { ...noComponents, currentInterest: 30000 },
    allocationOrder: DEFAULT_ORDER,
    allocationRule: DEFAULT_RULE,
    postings: [{ debit: 'overpayment', credit: 'interest_receivable', amount: 30000 }],
  },
});

const RefundIssued = accountingEvent('refund-issued', {
  description: 'Money held for the borrower was paid back to them.',
  schema: {
    refundId: uuid('The refund.'),
    amount: positiveMoney('The amount refunded.'),
    reason: oneOf(['overpayment', 'cancellation', 'other'], 'Why.'),
    postings: postings(1),
  },
  example: {
    ...exLoan('refund-issued', '2028-11-06', '2028-11-06T09:00:00.000Z'),
    refundId: '1c2d3e4f-5a6b-4c7d-9e8f-0a1b2c3d4e5f',
    amount: 1520,
    reason: 'overpayment',
    postings: [{ debit: 'overpayment', credit: 'cash', amount: 1520 }],
  },
});

// -- schedule changes -------------------------------------------------------------------------------

const InterestCapitalised = accountingEvent('interest-capitalised', {
  description: 'Interest (current, overdue or deferred) was added to the principal.',
  schema: {
    amount: positiveMoney('The interest capitalised.'),
    reason: oneOf(['restructuring', 'payment-holiday-end', 'other'], 'Why.'),
    postings: postings(1),
  },
  example: {
    ...exLoan('interest-capitalised', '2027-06-15', '2027-06-15T09:30:00.000Z'),
    amount: 412000,
    reason: 'restructuring',
    postings: [{ debit: 'loan_principal', credit: 'overdue_interest', amount: 412000 }],
  },
});

const LoanRestructured = accountingEvent('loan-restructured', {
  description:
    'The loan was restructured: overdue amounts the new schedule takes over go back to current, and the ' +
    'terms change (the schedule is regenerated).',
  schema: {
    restructuringId: uuid('The restructuring.'),
    reclassifiedPrincipal: money('Overdue principal moved back to current.'),
    reclassifiedInterest: money('Overdue interest moved back to current.'),
    nominalRate: rate('The nominal rate now.'),
    maturityDate: date('The last due date now.'),
    instalmentAmount: nullableMoney('The regular instalment now (annuity).'),
    postings: postings(0),
  },
  example: {
    ...exLoan('loan-restructured', '2027-06-15', '2027-06-15T09:30:00.000Z'),
    restructuringId: '0a1b2c3d-4e5f-4a6b-8c7d-8e9f0a1b2c3d',
    reclassifiedPrincipal: 2613000,
    reclassifiedInterest: 0,
    nominalRate: '15',
    maturityDate: '2029-11-05',
    instalmentAmount: 684000,
    postings: [{ debit: 'loan_principal', credit: 'overdue_principal', amount: 2613000 }],
  },
});

const PaymentHolidayGranted = accountingEvent('payment-holiday-granted', {
  description:
    'A payment holiday started: the instalments it covers move after it. No posting: the interest ' +
    'accrued for them stays on `interest_receivable` and is billed with the first instalment after the ' +
    'holiday (`deferredInterest` says how much).',
  schema: {
    holidayId: uuid('The payment holiday.'),
    startDate: date('First day of the holiday.'),
    endDate: date('Last day of the holiday.'),
    deferredInterest: money('Accrued interest deferred now.'),
    postings: postings(0),
  },
  example: {
    ...exLoan('payment-holiday-granted', '2027-04-01', '2027-04-01T08:00:00.000Z'),
    holidayId: '1b2c3d4e-5f6a-4b7c-9d8e-9f0a1b2c3d4e',
    startDate: '2027-04-01',
    endDate: '2027-09-30',
    deferredInterest: 350950,
    postings: [],
  },
});

const PaymentHolidayEnded = accountingEvent('payment-holiday-ended', {
  description:
    'A payment holiday ended: deferred interest is spread over the schedule, capitalised or due at once.',
  schema: {
    holidayId: uuid('The payment holiday.'),
    treatment: oneOf(
      ['spread-over-schedule', 'capitalised', 'due-at-end'],
      'What happens to the deferred interest.',
    ),
    deferredInterest: money('The deferred interest at the end of the holiday.'),
    postings: postings(0),
  },
  example: {
    ...exLoan('payment-holiday-ended', '2027-09-30', '2027-09-30T21:00:00.000Z'),
    holidayId: '1b2c3d4e-5f6a-4b7c-9d8e-9f0a1b2c3d4e',
    treatment: 'spread-over-schedule',
    deferredInterest: 2398110,
    postings: [{ debit: 'interest_receivable', credit: 'deferred_interest', amount: 2398110 }],
  },
});

// -- credit risk ------------------------------------------------------------------------------------

const provisionFields = {
  stage: oneOf(['stage-1', 'stage-2', 'stage-3'], 'Credit-risk stage after the change (IFRS 9 sense).'),
  provisionPercent: {
    type: 'string',
    pattern: '^(0|[1-9][0-9]{0,2})(\\.[0-9]{1,4})?$',
    description: 'Provision as a percent of the exposure, a decimal string (e.g. "20.5").',
  },
  exposure: money('The debt provisioned against.'),
  provisionBalance: money('The provision after the change.'),
  daysPastDue: count('Days past due when assessed.'),
  amount: positiveMoney('The change of the provision.'),
} as const;

const ProvisionCharged = accountingEvent('provision-charged', {
  description: 'The provision for expected losses on the agreement grew.',
  schema: { ...provisionFields, postings: postings(1) },
  example: {
    ...exLoan('provision-charged', '2027-02-01', '2027-02-01T01:00:00.000Z'),
    stage: 'stage-2',
    provisionPercent: '20',
    exposure: 24050000,
    provisionBalance: 4810000,
    daysPastDue: 31,
    amount: 4570000,
    postings: [{ debit: 'provision_expense', credit: 'loan_loss_provision', amount: 4570000 }],
  },
});

const ProvisionReleased = accountingEvent('provision-released', {
  description:
    'The provision for expected losses on the agreement shrank (the debt was paid, or the risk fell).',
  schema: { ...provisionFields, postings: postings(1) },
  example: {
    ...exLoan('provision-released', '2027-03-01', '2027-03-01T01:00:00.000Z'),
    stage: 'stage-1',
    provisionPercent: '1',
    exposure: 23265000,
    provisionBalance: 232650,
    daysPastDue: 0,
    amount: 4577350,
    postings: [{ debit: 'loan_loss_provision', credit: 'provision_income', amount: 4577350 }],
  },
});

const LoanWrittenOff = accountingEvent('loan-written-off', {
  description:
    'Debt judged uncollectable was taken off the balance sheet against its provision (the rest to ' +
    '`credit_losses`) and kept off-balance while it is still claimed. The obligation itself goes on.',
  schema: {
    writeOffId: uuid('The write-off.'),
    writtenOff: componentAmounts('What was written off, per component.'),
    amount: positiveMoney('The total written off.'),
    reason: oneOf(
      ['uncollectable', 'statute-of-limitations', 'bankruptcy-completed', 'lender-decision'],
      'Why.',
    ),
    postings: postings(1),
  },
  example: {
    ...exLoan('loan-written-off', '2028-03-31', '2028-03-31T18:00:00.000Z'),
    writeOffId: '2d3e4f5a-6b7c-4d8e-8f9a-1b2c3d4e5f6a',
    writtenOff: { ...noComponents, penalties: 415430, overdueInterest: 600000, overduePrincipal: 20000000 },
    amount: 21015430,
    reason: 'uncollectable',
    postings: [
      { debit: 'loan_loss_provision', credit: 'overdue_principal', amount: 20000000 },
      { debit: 'credit_losses', credit: 'overdue_interest', amount: 600000 },
      { debit: 'credit_losses', credit: 'penalty_receivable', amount: 415430 },
      { debit: 'written_off_debt', credit: 'off_balance_contra', amount: 21015430 },
    ],
  },
});

const RecoveryReceived = accountingEvent('recovery-received', {
  description:
    'Money was recovered on debt already written off: income, and the off-balance claim shrinks (after ' +
    'payment-received in the same operation).',
  schema: {
    paymentId: uuid('The payment.'),
    amount: positiveMoney('The amount recovered.'),
    postings: postings(1),
  },
  example: {
    ...exLoan('recovery-received', '2028-06-10', '2028-06-10T11:00:00.000Z'),
    paymentId: '5a6b7c8d-9e0f-4a1b-8c2d-3e4f5a6b7c8d',
    amount: 500000,
    postings: [
      { debit: 'unallocated_payments', credit: 'recovery_income', amount: 500000 },
      { debit: 'off_balance_contra', credit: 'written_off_debt', amount: 500000 },
    ],
  },
});

const LoanAssigned = accountingEvent('loan-assigned', {
  description:
    'The rights under the agreement were assigned (cession) for a price: the debt leaves the books, the ' +
    'assignee owes the price, the difference is a gain or a loss.',
  schema: {
    assignmentId: uuid('The assignment.'),
    scope: oneOf(['full', 'partial'], 'All the rights, or a part of them.'),
    assigneeName: text('Who acquired the rights.', 300),
    price: money('What the assignee pays.'),
    transferred: componentAmounts('The debt assigned, per component.'),
    postings: postings(1),
  },
  example: {
    ...exLoan('loan-assigned', '2027-12-01', '2027-12-01T10:00:00.000Z'),
    assignmentId: '8c9d0e1f-2a3b-4c4d-9e5f-7a8b9c0d1e2f',
    scope: 'full',
    assigneeName: 'Collection Partner LLC',
    price: 12600000,
    transferred: {
      ...noComponents,
      penalties: 400000,
      overdueInterest: 600000,
      overduePrincipal: 2800000,
      currentPrincipal: 17200000,
    },
    postings: [
      { debit: 'assignment_receivable', credit: 'loan_principal', amount: 12600000 },
      { debit: 'assignment_loss', credit: 'loan_principal', amount: 4600000 },
      { debit: 'assignment_loss', credit: 'overdue_principal', amount: 2800000 },
      { debit: 'assignment_loss', credit: 'overdue_interest', amount: 600000 },
      { debit: 'assignment_loss', credit: 'penalty_receivable', amount: 400000 },
    ],
  },
});

const DebtForgiven = accountingEvent('debt-forgiven', {
  description: 'The lender forgave debt, in full or in part: the obligation shrinks or ends.',
  schema: {
    forgiven: componentAmounts('What was forgiven, per component.'),
    amount: positiveMoney('The total forgiven.'),
    reason: text('Why, for people.'),
    postings: postings(1),
  },
  example: {
    ...exLoan('debt-forgiven', '2029-03-01', '2029-03-01T10:00:00.000Z'),
    forgiven: { ...noComponents, penalties: 230000, overduePrincipal: 1600000 },
    amount: 1830000,
    reason: 'Settlement agreement of 2029-02-25.',
    postings: [
      { debit: 'credit_losses', credit: 'overdue_principal', amount: 1600000 },
      { debit: 'credit_losses', credit: 'penalty_receivable', amount: 230000 },
    ],
  },
});

// -- credit lines -----------------------------------------------------------------------------------

const CreditLineOpened = accountingEvent('credit-line-opened', {
  description: 'A credit line was opened: its limit is recorded off-balance as unused.',
  schema: {
    limitAmount: positiveMoney('The limit.'),
    availableUntil: date('Last day a tranche may be drawn.'),
    postings: postings(1),
  },
  example: {
    ...exLine('credit-line-opened', '2026-11-05', '2026-11-05T10:00:00.000Z', null),
    limitAmount: 50000000,
    availableUntil: '2027-11-05',
    postings: [{ debit: 'unused_credit_limit', credit: 'off_balance_contra', amount: 50000000 }],
  },
});

const CreditLineLimitChanged = accountingEvent('credit-line-limit-changed', {
  description: "A credit line's limit changed: the unused limit grows or shrinks by the difference.",
  schema: {
    previousLimit: money('The limit before.'),
    newLimit: money('The limit now.'),
    availableLimit: money('What may be drawn now.'),
    postings: postings(1),
  },
  example: {
    ...exLine('credit-line-limit-changed', '2027-02-01', '2027-02-01T07:00:00.000Z', null),
    previousLimit: 50000000,
    newLimit: 60000000,
    availableLimit: 50000000,
    postings: [{ debit: 'unused_credit_limit', credit: 'off_balance_contra', amount: 10000000 }],
  },
});

const CreditLineClosed = accountingEvent('credit-line-closed', {
  description: 'A credit line closed: what was left unused leaves the off-balance accounts.',
  schema: {
    releasedLimit: money('The unused limit released.'),
    reason: oneOf(['matured', 'borrower-request', 'lender-termination'], 'Why it closed.'),
    postings: postings(0),
  },
  example: {
    ...exLine('credit-line-closed', '2028-11-05', '2028-11-05T07:00:00.000Z', null),
    releasedLimit: 50000000,
    reason: 'matured',
    postings: [{ debit: 'off_balance_contra', credit: 'unused_credit_limit', amount: 50000000 }],
  },
});

// -- closing, corrections, the day ------------------------------------------------------------------

const LoanClosed = accountingEvent('loan-closed', {
  description:
    'A loan (or a tranche) closed with every balance at zero; a sub-unit residue left by rounding is ' +
    'settled here.',
  schema: {
    reason: oneOf(['repaid', 'written-off', 'assigned', 'forgiven', 'cancelled'], 'How it ended.'),
    closedOn: date('The day it closed.'),
    postings: postings(0),
  },
  example: {
    ...exLine('loan-closed', '2027-11-10', '2027-11-10T07:00:00.000Z', TRANCHE),
    reason: 'repaid',
    closedOn: '2027-11-10',
    postings: [{ debit: 'interest_receivable', credit: 'rounding_difference', amount: 1 }],
  },
});

const EntryReversed = accountingEvent('entry-reversed', {
  description:
    'An earlier accounting event was reversed in full (storno): the same postings with debit and credit ' +
    'swapped. Used for any type without a reversal of its own (payments and disbursements have theirs).',
  schema: {
    reversesEventId: uuid('The `event-id` of the event reversed.'),
    reversesEventType: {
      type: 'string',
      pattern: '^lending\\.accounting\\.[a-z][a-z-]*$',
      description: 'Its type, e.g. `lending.accounting.fee-charged`.',
    },
    reversesOperationId: uuid('Its operation.'),
    reason: oneOf(['booked-in-error', 'recalculation', 'other'], 'Why.'),
    note: nullableText('Details, for people.'),
    postings: postings(1),
  },
  example: {
    ...exLoan('entry-reversed', '2026-11-21', '2026-11-21T08:00:00.000Z'),
    reversesEventId: '7f8a9b0c-1d2e-4f3a-8b4c-5d6e7f8a9b0c',
    reversesEventType: 'lending.accounting.fee-charged',
    reversesOperationId: 'f0000000-0000-4000-8000-000000000003',
    reason: 'booked-in-error',
    note: null,
    postings: [{ debit: 'fee_income', credit: 'fee_receivable', amount: 250000 }],
  },
});

const dayFields = {
  eventType: eventTypeField('lending.accounting.day-closed'),
  schemaVersion: schemaVersionField,
  organizationId: {
    ...organizationIdField,
    description: `${organizationIdField.description} Also the message key.`,
  },
  businessDate: date('The accounting day closed.'),
  closedAt: instant('When it was closed.'),
  eventCount: count("The organization's accounting events of the day, this one excluded."),
  totals: {
    type: 'array',
    maxItems: 200,
    items: {
      type: 'object',
      additionalProperties: false,
      required: ['currency', 'eventCount', 'postingCount', 'amountTotal'],
      properties: {
        currency: currencyField,
        eventCount: count('Events of the day in this currency.'),
        postingCount: count('Their postings.'),
        amountTotal: money('The sum of their postings (each is one debit and one credit of this amount).'),
      },
      description: 'Control totals of one currency.',
    },
    description: 'Control totals per currency, ordered by currency code; empty on a day without events.',
  },
} as const;

const DayClosed = lendingEventType<PayloadOf<typeof dayFields>>({
  topic: LENDING_ACCOUNTING_TOPIC,
  eventType: 'lending.accounting.day-closed',
  aggregateType: 'lending.organization',
  key: 'organizationId',
  description:
    "The organization's accounting day was closed: no event of that day follows. Its control totals let " +
    'a consumer (or the daily file) check it has every event of the day, whatever partition they came on.',
  schema: dayFields,
  example: {
    eventType: 'lending.accounting.day-closed',
    schemaVersion: SCHEMA_VERSION,
    organizationId: ORG,
    businessDate: '2026-12-05',
    closedAt: '2026-12-05T21:00:03.120Z',
    eventCount: 2,
    totals: [{ currency: 'RUB', eventCount: 2, postingCount: 3, amountTotal: 2543620 }],
  } satisfies PayloadOf<typeof dayFields>,
});

/** Every accounting event type, in the order of the documentation. */
export const ACCOUNTING_EVENT_CONTRACTS = [
  LoanDisbursed,
  DisbursementReversed,
  FeeCharged,
  FeeWaived,
  InterestAccrued,
  InterestAccrualAdjusted,
  PenaltyAccrued,
  PenaltyWaived,
  PrincipalOverdue,
  InterestOverdue,
  PaymentReceived,
  PaymentAllocated,
  PaymentReversed,
  EarlyRepaymentApplied,
  OverpaymentRecorded,
  OverpaymentApplied,
  RefundIssued,
  InterestCapitalised,
  LoanRestructured,
  PaymentHolidayGranted,
  PaymentHolidayEnded,
  ProvisionCharged,
  ProvisionReleased,
  LoanWrittenOff,
  RecoveryReceived,
  LoanAssigned,
  DebtForgiven,
  CreditLineOpened,
  CreditLineLimitChanged,
  CreditLineClosed,
  LoanClosed,
  EntryReversed,
  DayClosed,
] as const;
