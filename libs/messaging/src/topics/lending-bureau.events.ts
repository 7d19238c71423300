import type { TopicContract } from '../contract';
import type { Fields, PayloadOf } from '../json-schema';
import {
  agreementIdField,
  agreementTypeField,
  balancesField,
  count,
  currencyField,
  date,
  eventTypeField,
  lendingEventType,
  loanIdField,
  money,
  nullableDate,
  nullableMoney,
  nullableText,
  nullableUuid,
  occurredAtField,
  oneOf,
  organizationIdField,
  positiveMoney,
  rate,
  schemaVersionField,
  text,
  uuid,
  SCHEMA_VERSION,
} from './lending.fields';

/**
 * The 33 event types the credit bureaus receive (docs/lending/events.md, "Bureau events"): what a
 * bureau reporter needs to form a credit history under the Bank of Russia's Regulation 758-P, which
 * reports by events. Each type says which 758-P event(s) it becomes and how sure that mapping is.
 * Events carry ids and amounts, never personal data: the reporter reads the subject's title part
 * (name, documents, addresses) from the customer record.
 */
export const LENDING_BUREAU_TOPIC = 'lending.contract.bureau-events.v1';

/** How one of our types is reported under 758-P. */
export interface Report758 {
  /** 758-P event codes (e.g. `2.3`); several when the choice depends on the payload or the subject. */
  readonly codes: readonly string[];
  /**
   * `catalogue`: the catalogue's own wording names this fact; `inferred`: the closest event by our
   * reading, to be confirmed with the bureau; docs/lending/events.md says why for each.
   */
  readonly basis: 'catalogue' | 'inferred';
}

export type BureauEventContract<P> = TopicContract<P> & { readonly report758: Report758 };

const common = {
  schemaVersion: schemaVersionField,
  organizationId: organizationIdField,
  customerId: uuid(
    'The borrower, a customer of the organization: the subject of the credit history. Their personal ' +
      'data stays in the customer record, where the reporter reads it.',
  ),
  bureauUid: {
    type: 'string',
    pattern: '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}-[0-9a-zA-Z]$',
    description:
      "The record's unique identifier (UID, `УИд`) as 758-P's rules assign it: a UUID, a hyphen and a " +
      'check character. Given when the application is made and kept by the agreement made from it.',
  },
  eventDate: date('The day the fact happened, which the bureau reports as the event date.'),
  occurredAt: occurredAtField,
} as const;

const applicationFields = <const T extends string>(type: T) =>
  ({
    eventType: eventTypeField(type),
    ...common,
    applicationId: uuid("The loan application (the message key); 758-P calls it the subject's application."),
  }) as const;

const agreementFields = <const T extends string>(type: T) =>
  ({
    eventType: eventTypeField(type),
    ...common,
    agreementId: agreementIdField,
    agreementType: agreementTypeField,
    loanId: loanIdField,
  }) as const;

type ApplicationFields<T extends string> = ReturnType<typeof applicationFields<T>>;
type AgreementFields<T extends string> = ReturnType<typeof agreementFields<T>>;

interface Definition<F extends Fields, P> {
  readonly report758: Report758;
  readonly description: string;
  readonly schema: F;
  readonly example: P;
}

function describe(description: string, r: Report758): string {
  const codes = r.codes.join(' or ');
  const basis = r.basis === 'inferred' ? ' (inferred; see docs/lending/events.md)' : '';
  return `${description} 758-P event ${codes}${basis}.`;
}

function member<P>(d: Parameters<typeof lendingEventType>[0], report758: Report758): BureauEventContract<P> {
  return Object.assign(lendingEventType<P>(d), { report758 });
}

/** An event of a loan application (758-P 1.x), keyed by the application. */
function applicationEvent<const N extends string, const F extends Fields>(
  name: N,
  d: Definition<F, NoInfer<PayloadOf<ApplicationFields<`lending.bureau.${N}`> & F>>>,
) {
  const eventType = `lending.bureau.${name}` as const;
  return member<PayloadOf<ApplicationFields<typeof eventType> & F>>(
    {
      topic: LENDING_BUREAU_TOPIC,
      eventType,
      aggregateType: 'lending.application',
      description: describe(d.description, d.report758),
      key: 'applicationId',
      schema: { ...applicationFields(eventType), ...d.schema },
      example: d.example,
    },
    d.report758,
  );
}

/** An event of a loan or credit line agreement (758-P 1.4 and later), keyed by the agreement. */
function agreementEvent<const N extends string, const F extends Fields>(
  name: N,
  d: Definition<F, NoInfer<PayloadOf<AgreementFields<`lending.bureau.${N}`> & F>>>,
) {
  const eventType = `lending.bureau.${name}` as const;
  return member<PayloadOf<AgreementFields<typeof eventType> & F>>(
    {
      topic: LENDING_BUREAU_TOPIC,
      eventType,
      aggregateType: 'lending.agreement',
      description: describe(d.description, d.report758),
      key: 'agreementId',
      schema: { ...agreementFields(eventType), ...d.schema },
      example: d.example,
    },
    d.report758,
  );
}

const catalogue = (...codes: string[]): Report758 => ({ codes, basis: 'catalogue' });
const inferred = (...codes: string[]): Report758 => ({ codes, basis: 'inferred' });

// Example values: one organization, one borrower, one loan made from one application, one credit line.
const ORG = 'org-a';
const CUSTOMER = '2c1f4e8a-7b3d-4c5e-9f1a-0b2c3d4e5f60';
const APPLICATION = '6a7b8c9d-0e1f-4a2b-8c3d-4e5f6a7b8c9d';
const LOAN = 'b3c4d5e6-f7a8-4b9c-8d0e-1f2a3b4c5d6e';
const LINE = 'c4d5e6f7-a8b9-4c0d-9e1f-2a3b4c5d6e7f';
const TRANCHE = 'd5e6f7a8-b9c0-4d1e-8f2a-3b4c5d6e7f80';
const UID = '6a7b8c9d-0e1f-1a2b-8c3d-4e5f6a7b8c9d-7';
const LINE_UID = 'c4d5e6f7-a8b9-1c0d-9e1f-2a3b4c5d6e7f-3';

const ex = <const T extends string>(type: T, eventDate: string, occurredAt: string) =>
  ({
    eventType: `lending.bureau.${type}`,
    schemaVersion: SCHEMA_VERSION,
    organizationId: ORG,
    customerId: CUSTOMER,
    bureauUid: UID,
    eventDate,
    occurredAt,
  }) as const;
const exApplication = <const T extends string>(type: T, eventDate: string, occurredAt: string) =>
  ({ ...ex(type, eventDate, occurredAt), applicationId: APPLICATION }) as const;
const exLoan = <const T extends string>(type: T, eventDate: string, occurredAt: string) =>
  ({ ...ex(type, eventDate, occurredAt), agreementId: LOAN, agreementType: 'loan', loanId: LOAN }) as const;
const exLine = <const T extends string>(
  type: T,
  eventDate: string,
  occurredAt: string,
  loanId: string | null,
) =>
  ({
    ...ex(type, eventDate, occurredAt),
    bureauUid: LINE_UID,
    agreementId: LINE,
    agreementType: 'credit-line',
    loanId,
  }) as const;

const ZERO_BALANCES = {
  principal: 0,
  interest: 0,
  fees: 0,
  penalties: 0,
  overduePrincipal: 0,
  overdueInterest: 0,
  total: 0,
  daysPastDue: 0,
};
const balances = (b: Partial<typeof ZERO_BALANCES>) => {
  const all = { ...ZERO_BALANCES, ...b };
  return { ...all, total: all.principal + all.interest + all.fees + all.penalties };
};

const productType = oneOf(['loan', 'credit-line'], 'What the applicant asked for.');
const termMonths = count('Term in months.', 1);
const refusalReason = oneOf(
  [
    'credit-policy',
    'insufficient-income',
    'debt-burden',
    'credit-history',
    'identity-not-confirmed',
    'fraud-suspected',
    'incomplete-application',
    'other',
  ],
  "Why the lender refused; the reporter maps it to 758-P's reference of refusal reasons.",
);
const guaranteeKind = oneOf(['surety', 'independent-guarantee'], 'Suretyship or an independent guarantee.');
const collateralKind = oneOf(
  ['real-estate', 'vehicle', 'deposit', 'equipment', 'securities', 'goods', 'rights', 'other'],
  'What is pledged.',
);

// -- 1.x: the application ----------------------------------------------------------------------------

const ApplicationSubmitted = applicationEvent('application-submitted', {
  report758: catalogue('1.1'),
  description: 'A borrower applied for a loan or a credit line (the subject applied to the source).',
  schema: {
    productType,
    requestedAmount: positiveMoney('The amount asked for.'),
    currency: currencyField,
    requestedTermMonths: termMonths,
  },
  example: {
    ...exApplication('application-submitted', '2026-11-02', '2026-11-02T08:30:00.000Z'),
    productType: 'loan',
    requestedAmount: 30000000,
    currency: 'RUB',
    requestedTermMonths: 24,
  },
});

const ApplicationApproved = applicationEvent('application-approved', {
  report758: catalogue('1.2'),
  description: 'The lender approved the application and made the borrower an offer.',
  schema: {
    approvedAmount: positiveMoney('The amount offered.'),
    currency: currencyField,
    termMonths,
    nominalRate: rate('The nominal rate offered.'),
    offerValidUntil: date('Last day the borrower may accept the offer.'),
  },
  example: {
    ...exApplication('application-approved', '2026-11-03', '2026-11-03T11:02:17.250Z'),
    approvedAmount: 25000000,
    currency: 'RUB',
    termMonths: 24,
    nominalRate: '19.9',
    offerValidUntil: '2026-11-17',
  },
});

const ApplicationChanged = applicationEvent('application-changed', {
  report758: catalogue('1.2'),
  description: "The application's or the offer's terms changed before an agreement was made.",
  schema: {
    requestedAmount: positiveMoney('The amount asked for now.'),
    currency: currencyField,
    requestedTermMonths: termMonths,
    approvedAmount: nullableMoney('The amount offered now; null before a decision.'),
  },
  example: {
    ...exApplication('application-changed', '2026-11-04', '2026-11-04T09:12:40.000Z'),
    requestedAmount: 25000000,
    currency: 'RUB',
    requestedTermMonths: 24,
    approvedAmount: 25000000,
  },
});

const ApplicationRefused = applicationEvent('application-refused', {
  report758: catalogue('1.3'),
  description: 'The lender refused to make the agreement applied for.',
  schema: {
    requestedAmount: positiveMoney('The amount of the agreement refused.'),
    currency: currencyField,
    reason: refusalReason,
  },
  example: {
    ...exApplication('application-refused', '2026-11-03', '2026-11-03T11:02:17.250Z'),
    requestedAmount: 30000000,
    currency: 'RUB',
    reason: 'debt-burden',
  },
});

const ApplicationWithdrawn = applicationEvent('application-withdrawn', {
  report758: inferred('1.2'),
  description: 'The borrower withdrew the application or let the offer lapse, so no agreement was made.',
  schema: {
    withdrawnBy: oneOf(['applicant', 'offer-expired'], 'Who ended it: the applicant, or the offer ran out.'),
  },
  example: {
    ...exApplication('application-withdrawn', '2026-11-18', '2026-11-18T00:05:00.000Z'),
    withdrawnBy: 'offer-expired',
  },
});

// -- 1.4, 2.1, 2.2: the agreement, its terms and the money lent --------------------------------------

const LoanContractConcluded = agreementEvent('loan-contract-concluded', {
  report758: catalogue('1.4'),
  description: 'A loan contract was signed (the subject and the source made the deal).',
  schema: {
    applicationId: uuid('The application the contract was made from.'),
    amount: positiveMoney('The principal lent.'),
    currency: currencyField,
    nominalRate: rate('The nominal rate.'),
    fullCostRate: rate('The full cost of credit (ПСК) as a rate.'),
    fullCostAmount: money('The full cost of credit as an amount.'),
    scheduleType: oneOf(['annuity', 'differentiated', 'bullet'], 'How principal is repaid.'),
    frequency: oneOf(['monthly', 'quarterly', 'weekly', 'biweekly'], 'How often instalments fall due.'),
    firstPaymentDate: date('Due date of the first instalment.'),
    maturityDate: date('Due date of the last instalment.'),
    instalmentAmount: nullableMoney('The regular instalment for an annuity.'),
  },
  example: {
    ...exLoan('loan-contract-concluded', '2026-11-05', '2026-11-05T10:00:00.000Z'),
    applicationId: APPLICATION,
    amount: 25000000,
    currency: 'RUB',
    nominalRate: '19.9',
    fullCostRate: '21.35',
    fullCostAmount: 5623440,
    scheduleType: 'annuity',
    frequency: 'monthly',
    firstPaymentDate: '2026-12-05',
    maturityDate: '2028-11-05',
    instalmentAmount: 1271810,
  },
});

const CreditLineOpened = agreementEvent('credit-line-opened', {
  report758: catalogue('1.4'),
  description: 'A credit line agreement was signed: the borrower may draw tranches up to the limit.',
  schema: {
    applicationId: uuid('The application the agreement was made from.'),
    limitAmount: positiveMoney('The credit limit.'),
    currency: currencyField,
    nominalRate: rate('The nominal rate of the tranches.'),
    fullCostRate: rate('The full cost of credit (ПСК) as a rate.'),
    availableUntil: date('Last day a tranche may be drawn.'),
    maturityDate: date('Day everything drawn must be repaid.'),
  },
  example: {
    ...exLine('credit-line-opened', '2026-11-05', '2026-11-05T10:00:00.000Z', null),
    applicationId: APPLICATION,
    limitAmount: 50000000,
    currency: 'RUB',
    nominalRate: '17.5',
    fullCostRate: '18.9',
    availableUntil: '2027-11-05',
    maturityDate: '2028-11-05',
  },
});

const LoanDisbursed = agreementEvent('loan-disbursed', {
  report758: catalogue('2.2'),
  description: 'The loan amount was paid out to the borrower.',
  schema: {
    amount: positiveMoney('The amount paid out.'),
    currency: currencyField,
    balances: balancesField,
  },
  example: {
    ...exLoan('loan-disbursed', '2026-11-05', '2026-11-05T10:04:11.500Z'),
    amount: 25000000,
    currency: 'RUB',
    balances: balances({ principal: 25000000 }),
  },
});

const CreditLineDrawn = agreementEvent('credit-line-drawn', {
  report758: inferred('2.2', '2.3'),
  description: 'A tranche was drawn under a credit line and paid out (`loanId` is the tranche).',
  schema: {
    amount: positiveMoney('The tranche paid out.'),
    currency: currencyField,
    availableLimit: money('What may still be drawn afterwards.'),
    firstDrawing: { type: 'boolean', description: 'Whether this is the first tranche of the line.' },
    balances: balancesField,
  },
  example: {
    ...exLine('credit-line-drawn', '2026-11-10', '2026-11-10T13:45:00.000Z', TRANCHE),
    amount: 10000000,
    currency: 'RUB',
    availableLimit: 40000000,
    firstDrawing: true,
    balances: balances({ principal: 10000000 }),
  },
});

const CreditLineLimitChanged = agreementEvent('credit-line-limit-changed', {
  report758: catalogue('2.1'),
  description: "A credit line's limit was raised or lowered.",
  schema: {
    previousLimit: money('The limit before.'),
    newLimit: money('The limit now.'),
    currency: currencyField,
    availableLimit: money('What may be drawn now.'),
    reason: oneOf(['borrower-request', 'lender-review', 'covenant-breach'], 'Why the limit changed.'),
  },
  example: {
    ...exLine('credit-line-limit-changed', '2027-02-01', '2027-02-01T07:00:00.000Z', null),
    previousLimit: 50000000,
    newLimit: 60000000,
    currency: 'RUB',
    availableLimit: 50000000,
    reason: 'borrower-request',
  },
});

const TermsChanged = agreementEvent('terms-changed', {
  report758: catalogue('2.1'),
  description:
    "The agreement's terms changed by agreement or by its own rules: rate, maturity, fees, or the " +
    'schedule after a partial early repayment.',
  schema: {
    reason: oneOf(
      [
        'rate-change',
        'maturity-change',
        'fee-change',
        'early-repayment-reduce-term',
        'early-repayment-reduce-instalment',
        'other',
      ],
      'What changed.',
    ),
    nominalRate: rate('The nominal rate now.'),
    fullCostRate: rate('The full cost of credit (ПСК) now.'),
    currency: currencyField,
    maturityDate: date('The last due date now.'),
    instalmentAmount: nullableMoney('The regular instalment now (annuity).'),
    nextPaymentDate: nullableDate('The next due date; null when nothing more falls due.'),
  },
  example: {
    ...exLoan('terms-changed', '2027-03-20', '2027-03-20T12:00:05.000Z'),
    reason: 'early-repayment-reduce-instalment',
    nominalRate: '19.9',
    fullCostRate: '21.35',
    currency: 'RUB',
    maturityDate: '2028-11-05',
    instalmentAmount: 1017450,
    nextPaymentDate: '2027-04-05',
  },
});

const LoanRestructured = agreementEvent('loan-restructured', {
  report758: inferred('2.1'),
  description:
    'The debt was restructured: a new schedule, maturity or rate for a borrower in difficulty; overdue ' +
    'amounts may be folded into the new schedule.',
  schema: {
    restructuringId: uuid('The restructuring.'),
    basis: oneOf(['borrower-hardship', 'lender-initiative', 'court-decision', 'statutory'], 'Why.'),
    previousMaturityDate: date('The last due date before.'),
    maturityDate: date('The last due date now.'),
    nominalRate: rate('The nominal rate now.'),
    currency: currencyField,
    instalmentAmount: nullableMoney('The regular instalment now.'),
    capitalisedAmount: money('Interest, fees or penalties added to the principal.'),
    balances: balancesField,
  },
  example: {
    ...exLoan('loan-restructured', '2027-06-15', '2027-06-15T09:30:00.000Z'),
    restructuringId: '0a1b2c3d-4e5f-4a6b-8c7d-8e9f0a1b2c3d',
    basis: 'borrower-hardship',
    previousMaturityDate: '2028-11-05',
    maturityDate: '2029-11-05',
    nominalRate: '15',
    currency: 'RUB',
    instalmentAmount: 684000,
    capitalisedAmount: 412000,
    balances: balances({ principal: 17830000 }),
  },
});

const holidayMode = oneOf(['full-deferral', 'reduced-payment'], 'Nothing due during the holiday, or less.');

const PaymentHolidayGranted = agreementEvent('payment-holiday-granted', {
  report758: inferred('2.1'),
  description:
    'A payment holiday (credit holiday) was granted: instalments are deferred or reduced for a period.',
  schema: {
    holidayId: uuid('The payment holiday.'),
    basis: oneOf(['statutory', 'lender-programme'], 'By law (e.g. credit holidays) or by the lender.'),
    mode: holidayMode,
    startDate: date('First day of the holiday.'),
    endDate: date('Last day of the holiday.'),
    currency: currencyField,
    reducedInstalmentAmount: nullableMoney('What falls due each period during a reduced-payment holiday.'),
  },
  example: {
    ...exLoan('payment-holiday-granted', '2027-04-01', '2027-04-01T08:00:00.000Z'),
    holidayId: '1b2c3d4e-5f6a-4b7c-9d8e-9f0a1b2c3d4e',
    basis: 'statutory',
    mode: 'full-deferral',
    startDate: '2027-04-01',
    endDate: '2027-09-30',
    currency: 'RUB',
    reducedInstalmentAmount: null,
  },
});

const PaymentHolidayEnded = agreementEvent('payment-holiday-ended', {
  report758: inferred('2.1'),
  description: "A payment holiday ended (at its end date, or early at the borrower's request).",
  schema: {
    holidayId: uuid('The payment holiday.'),
    endedEarly: { type: 'boolean', description: 'Whether it ended before its planned end date.' },
    currency: currencyField,
    nextPaymentDate: nullableDate('The next due date.'),
    instalmentAmount: nullableMoney('The regular instalment from now on.'),
  },
  example: {
    ...exLoan('payment-holiday-ended', '2027-09-30', '2027-09-30T21:00:00.000Z'),
    holidayId: '1b2c3d4e-5f6a-4b7c-9d8e-9f0a1b2c3d4e',
    endedEarly: false,
    currency: 'RUB',
    nextPaymentDate: '2027-10-05',
    instalmentAmount: 1098200,
  },
});

// -- 2.3: performance and overdue -------------------------------------------------------------------

const paymentKind = oneOf(
  ['scheduled', 'overdue', 'early-partial', 'early-full'],
  'What the payment paid: an instalment due, an overdue debt, or principal ahead of schedule.',
);

const PaymentReceived = agreementEvent('payment-received', {
  report758: catalogue('2.3'),
  description: 'A payment was received and applied to the debt.',
  schema: {
    paymentId: uuid('The payment.'),
    kind: paymentKind,
    amount: positiveMoney('The amount paid.'),
    currency: currencyField,
    paidToPrincipal: money('Of `amount`, what went to principal.'),
    paidToInterest: money('Of `amount`, what went to interest.'),
    paidToOther: money('Of `amount`, what went to fees and penalties.'),
    nextPaymentDate: nullableDate('The next due date; null when nothing more falls due.'),
    nextPaymentAmount: nullableMoney('What falls due on `nextPaymentDate`.'),
    balances: balancesField,
  },
  example: {
    ...exLoan('payment-received', '2026-12-05', '2026-12-05T06:15:30.000Z'),
    paymentId: '3d4e5f6a-7b8c-4d9e-8f0a-1b2c3d4e5f6a',
    kind: 'scheduled',
    amount: 1271810,
    currency: 'RUB',
    paidToPrincipal: 862910,
    paidToInterest: 408900,
    paidToOther: 0,
    nextPaymentDate: '2027-01-05',
    nextPaymentAmount: 1271810,
    balances: balances({ principal: 24137090 }),
  },
});

const PaymentReversed = agreementEvent('payment-reversed', {
  report758: inferred('2.3', '3.2'),
  description:
    'A payment was reversed (returned by the bank, disputed, or booked in error), so the debt it paid ' +
    'is owed again.',
  schema: {
    paymentId: uuid('The payment reversed.'),
    amount: positiveMoney('The amount reversed.'),
    currency: currencyField,
    reason: oneOf(['returned-by-bank', 'payer-dispute', 'booked-in-error'], 'Why.'),
    balances: balancesField,
  },
  example: {
    ...exLoan('payment-reversed', '2026-12-07', '2026-12-07T10:20:00.000Z'),
    paymentId: '3d4e5f6a-7b8c-4d9e-8f0a-1b2c3d4e5f6a',
    amount: 1271810,
    currency: 'RUB',
    reason: 'returned-by-bank',
    balances: balances({
      principal: 25000000,
      interest: 408900,
      overduePrincipal: 862910,
      overdueInterest: 408900,
      daysPastDue: 2,
    }),
  },
});

const OverdueStarted = agreementEvent('overdue-started', {
  report758: catalogue('2.3'),
  description: 'An amount fell due and was not paid: the agreement is overdue (days past due starts at 1).',
  schema: {
    overdueSince: date('The due date that was missed.'),
    overdueAmount: positiveMoney('What is past due now.'),
    currency: currencyField,
    balances: balancesField,
  },
  example: {
    ...exLoan('overdue-started', '2027-01-06', '2027-01-06T00:10:00.000Z'),
    overdueSince: '2027-01-05',
    overdueAmount: 1271810,
    currency: 'RUB',
    balances: balances({
      principal: 24137090,
      interest: 408900,
      overduePrincipal: 862910,
      overdueInterest: 408900,
      daysPastDue: 1,
    }),
  },
});

const OverdueRepaid = agreementEvent('overdue-repaid', {
  report758: catalogue('2.3'),
  description: 'Everything past due was paid: the agreement is no longer overdue.',
  schema: {
    overdueSince: date('The oldest missed due date of the overdue period that ended.'),
    daysPastDue: count('How many days the overdue lasted.', 1),
    currency: currencyField,
    balances: balancesField,
  },
  example: {
    ...exLoan('overdue-repaid', '2027-01-19', '2027-01-19T15:00:00.000Z'),
    overdueSince: '2027-01-05',
    daysPastDue: 14,
    currency: 'RUB',
    balances: balances({ principal: 23265000 }),
  },
});

const GuarantorLiabilityArisen = agreementEvent('guarantor-liability-arisen', {
  report758: catalogue('2.3'),
  description: "The lender demanded payment from a guarantor: the guarantor's liability arose.",
  schema: {
    guaranteeId: uuid('The guarantee (suretyship).'),
    guarantorCustomerId: nullableUuid('The guarantor when they are a customer of the organization.'),
    demandedAmount: positiveMoney('The amount demanded from the guarantor.'),
    currency: currencyField,
    balances: balancesField,
  },
  example: {
    ...exLoan('guarantor-liability-arisen', '2027-05-10', '2027-05-10T09:00:00.000Z'),
    guaranteeId: '4e5f6a7b-8c9d-4e0f-9a1b-2c3d4e5f6a7b',
    guarantorCustomerId: '5f6a7b8c-9d0e-4f1a-8b2c-3d4e5f6a7b8c',
    demandedAmount: 3815430,
    currency: 'RUB',
    balances: balances({
      principal: 20000000,
      interest: 600000,
      overduePrincipal: 2800000,
      overdueInterest: 600000,
      penalties: 415430,
      daysPastDue: 95,
    }),
  },
});

// -- 2.4, 2.2.1: security ---------------------------------------------------------------------------

const CollateralAdded = agreementEvent('collateral-added', {
  report758: catalogue('2.4'),
  description: 'Collateral was pledged for the agreement.',
  schema: {
    collateralId: uuid('The collateral.'),
    kind: collateralKind,
    value: positiveMoney('Its value as agreed or appraised.'),
    currency: currencyField,
    valuationDate: date('When it was valued.'),
  },
  example: {
    ...exLoan('collateral-added', '2026-11-05', '2026-11-05T10:00:00.000Z'),
    collateralId: '6a7b8c9d-0e1f-4a2b-9c3d-5e6f7a8b9c0d',
    kind: 'vehicle',
    value: 120000000,
    currency: 'RUB',
    valuationDate: '2026-10-28',
  },
});

const CollateralRevalued = agreementEvent('collateral-revalued', {
  report758: catalogue('2.4'),
  description: 'Pledged collateral was valued again.',
  schema: {
    collateralId: uuid('The collateral.'),
    previousValue: money('The value before.'),
    value: money('The value now.'),
    currency: currencyField,
    valuationDate: date('When it was valued.'),
  },
  example: {
    ...exLoan('collateral-revalued', '2027-10-28', '2027-10-28T12:00:00.000Z'),
    collateralId: '6a7b8c9d-0e1f-4a2b-9c3d-5e6f7a8b9c0d',
    previousValue: 120000000,
    value: 98000000,
    currency: 'RUB',
    valuationDate: '2027-10-27',
  },
});

const CollateralReleased = agreementEvent('collateral-released', {
  report758: catalogue('2.4'),
  description: 'A pledge ended: the collateral no longer secures the agreement.',
  schema: {
    collateralId: uuid('The collateral.'),
    reason: oneOf(['debt-repaid', 'replaced', 'sold-to-repay', 'lender-decision'], 'Why the pledge ended.'),
  },
  example: {
    ...exLoan('collateral-released', '2028-11-06', '2028-11-06T08:00:00.000Z'),
    collateralId: '6a7b8c9d-0e1f-4a2b-9c3d-5e6f7a8b9c0d',
    reason: 'debt-repaid',
  },
});

const GuaranteeAdded = agreementEvent('guarantee-added', {
  report758: catalogue('2.4', '2.2.1'),
  description:
    "A guarantor secured the agreement: 2.4 in the borrower's record; the guarantor's own record gets " +
    '2.2.1 (became a guarantor).',
  schema: {
    guaranteeId: uuid('The guarantee.'),
    guarantorCustomerId: nullableUuid('The guarantor when they are a customer of the organization.'),
    kind: guaranteeKind,
    amount: positiveMoney('Up to what the guarantor answers.'),
    currency: currencyField,
    validUntil: nullableDate('Last day of the guarantee; null for as long as the debt.'),
  },
  example: {
    ...exLoan('guarantee-added', '2026-11-05', '2026-11-05T10:00:00.000Z'),
    guaranteeId: '4e5f6a7b-8c9d-4e0f-9a1b-2c3d4e5f6a7b',
    guarantorCustomerId: '5f6a7b8c-9d0e-4f1a-8b2c-3d4e5f6a7b8c',
    kind: 'surety',
    amount: 25000000,
    currency: 'RUB',
    validUntil: null,
  },
});

const GuaranteeEnded = agreementEvent('guarantee-ended', {
  report758: catalogue('2.4', '2.5'),
  description:
    "A guarantee ended: 2.4 in the borrower's record, 2.5 (obligation ended) in the guarantor's record.",
  schema: {
    guaranteeId: uuid('The guarantee.'),
    reason: oneOf(['debt-repaid', 'expired', 'released', 'fulfilled'], 'Why it ended.'),
  },
  example: {
    ...exLoan('guarantee-ended', '2028-11-06', '2028-11-06T08:00:00.000Z'),
    guaranteeId: '4e5f6a7b-8c9d-4e0f-9a1b-2c3d4e5f6a7b',
    reason: 'debt-repaid',
  },
});

// -- 2.6, 2.11: claims and assignment ---------------------------------------------------------------

const ClaimChanged = agreementEvent('claim-changed', {
  report758: catalogue('2.6'),
  description:
    'A claim or a court case about the agreement started or moved on (filed, decided, enforced, closed).',
  schema: {
    claimId: uuid('The claim.'),
    stage: oneOf(['demand-sent', 'filed', 'judgment', 'enforcement', 'closed'], 'Where it stands now.'),
    claimAmount: positiveMoney('The amount claimed.'),
    currency: currencyField,
    caseNumber: nullableText('The court case number, once filed.', 64),
    decidedOn: nullableDate('Day of the judgment, once given.'),
  },
  example: {
    ...exLoan('claim-changed', '2027-08-01', '2027-08-01T10:00:00.000Z'),
    claimId: '7b8c9d0e-1f2a-4b3c-8d4e-6f7a8b9c0d1e',
    stage: 'filed',
    claimAmount: 24516230,
    currency: 'RUB',
    caseNumber: '2-1234/2027',
    decidedOn: null,
  },
});

const RightsAssigned = agreementEvent('rights-assigned', {
  report758: catalogue('2.11', '2.11.1'),
  description: 'The lender assigned its rights under the agreement (cession): 2.11 in full, 2.11.1 in part.',
  schema: {
    assignmentId: uuid('The assignment.'),
    scope: oneOf(['full', 'partial'], 'All the rights, or a part of them.'),
    assigneeName: text('Who acquired the rights.', 300),
    assigneeTaxId: nullableText("The assignee's taxpayer number, when it has one.", 32),
    transferredAmount: positiveMoney('The debt transferred.'),
    currency: currencyField,
    balances: balancesField,
  },
  example: {
    ...exLoan('rights-assigned', '2027-12-01', '2027-12-01T10:00:00.000Z'),
    assignmentId: '8c9d0e1f-2a3b-4c4d-9e5f-7a8b9c0d1e2f',
    scope: 'full',
    assigneeName: 'Collection Partner LLC',
    assigneeTaxId: '7701234567',
    transferredAmount: 24516230,
    currency: 'RUB',
    balances: balances({}),
  },
});

// -- 2.5, 2.10: the end ------------------------------------------------------------------------------

const LoanRepaid = agreementEvent('loan-repaid', {
  report758: catalogue('2.5'),
  description: 'The loan was repaid in full (on schedule or early): the obligation ended.',
  schema: {
    early: { type: 'boolean', description: 'Whether it was repaid before maturity.' },
    lastPaymentId: nullableUuid('The payment that completed it.'),
    currency: currencyField,
    balances: balancesField,
  },
  example: {
    ...exLoan('loan-repaid', '2028-11-05', '2028-11-05T07:00:00.000Z'),
    early: false,
    lastPaymentId: '9d0e1f2a-3b4c-4d5e-8f6a-8b9c0d1e2f3a',
    currency: 'RUB',
    balances: balances({}),
  },
});

const CreditLineClosed = agreementEvent('credit-line-closed', {
  report758: catalogue('2.5'),
  description: 'A credit line was closed with nothing owed: no more tranches, the obligation ended.',
  schema: {
    reason: oneOf(['matured', 'borrower-request', 'lender-termination'], 'Why it closed.'),
  },
  example: {
    ...exLine('credit-line-closed', '2028-11-05', '2028-11-05T07:00:00.000Z', null),
    reason: 'matured',
  },
});

const ObligationTerminated = agreementEvent('obligation-terminated', {
  report758: catalogue('2.5'),
  description:
    'The obligation ended other than by repayment: debt forgiven, set off, cancelled before the money ' +
    'was paid out, or by a court decision.',
  schema: {
    reason: oneOf(
      ['debt-forgiven', 'set-off', 'cancelled-before-disbursement', 'court-decision', 'other'],
      'How it ended.',
    ),
    forgivenAmount: nullableMoney('What was forgiven, for `debt-forgiven`.'),
    currency: currencyField,
    balances: balancesField,
  },
  example: {
    ...exLoan('obligation-terminated', '2029-03-01', '2029-03-01T10:00:00.000Z'),
    reason: 'debt-forgiven',
    forgivenAmount: 1830000,
    currency: 'RUB',
    balances: balances({}),
  },
});

const ReportingStopped = agreementEvent('reporting-stopped', {
  report758: catalogue('2.10'),
  description:
    'The lender stops reporting the agreement (e.g. its rights went to another lender who reports now).',
  schema: {
    reason: oneOf(['rights-assigned', 'servicing-transferred', 'other'], 'Why.'),
  },
  example: {
    ...exLoan('reporting-stopped', '2027-12-01', '2027-12-01T10:00:01.000Z'),
    reason: 'rights-assigned',
  },
});

// -- 3.x, 4.x: corrections ---------------------------------------------------------------------------

const RecordCorrected = agreementEvent('record-corrected', {
  report758: catalogue('3.2'),
  description:
    'Something already reported about the agreement was wrong: the reporter sends the corrected ' +
    'indicators for the events since `correctFrom`.',
  schema: {
    correctFrom: date('The earliest event date whose reported data changes.'),
    correctedEventType: {
      type: 'string',
      pattern: '^lending\\.bureau\\.[a-z][a-z-]*$',
      description:
        'The type of the earliest reported event that was wrong, e.g. `lending.bureau.payment-received`.',
    },
    reason: text('What was wrong, for people.'),
  },
  example: {
    ...exLoan('record-corrected', '2026-12-08', '2026-12-08T09:00:00.000Z'),
    correctFrom: '2026-12-05',
    correctedEventType: 'lending.bureau.payment-received',
    reason: 'Payment booked to this loan by mistake; it belonged to another borrower.',
  },
});

const RecordExcluded = agreementEvent('record-excluded', {
  report758: catalogue('3.3'),
  description:
    'The agreement was reported in error (the lender holds no such agreement): its record is to be removed.',
  schema: {
    reason: text('What went wrong, for people.'),
  },
  example: {
    ...exLoan('record-excluded', '2026-11-06', '2026-11-06T09:00:00.000Z'),
    reason: 'Contract created twice by an operator error; the duplicate never existed.',
  },
});

const RecordAnnulled = agreementEvent('record-annulled', {
  report758: inferred('4.2'),
  description:
    "The agreement's record is to be annulled: a court or the lender found the subject never made it " +
    '(identity fraud) or the contract void.',
  schema: {
    basis: oneOf(['court-decision', 'fraud-confirmed', 'subject-dispute-upheld'], 'On what ground.'),
    reason: text('Details, for people.'),
  },
  example: {
    ...exLoan('record-annulled', '2027-02-14', '2027-02-14T09:00:00.000Z'),
    basis: 'fraud-confirmed',
    reason: 'Identity theft confirmed by the police report of 2027-02-10.',
  },
});

/**
 * Every bureau event type, in the order of the documentation. Typed as a tuple so that the union of
 * their payloads is exact.
 */
export const BUREAU_EVENT_CONTRACTS = [
  ApplicationSubmitted,
  ApplicationApproved,
  ApplicationChanged,
  ApplicationRefused,
  ApplicationWithdrawn,
  LoanContractConcluded,
  CreditLineOpened,
  LoanDisbursed,
  CreditLineDrawn,
  CreditLineLimitChanged,
  TermsChanged,
  LoanRestructured,
  PaymentHolidayGranted,
  PaymentHolidayEnded,
  PaymentReceived,
  PaymentReversed,
  OverdueStarted,
  OverdueRepaid,
  GuarantorLiabilityArisen,
  CollateralAdded,
  CollateralRevalued,
  CollateralReleased,
  GuaranteeAdded,
  GuaranteeEnded,
  ClaimChanged,
  RightsAssigned,
  LoanRepaid,
  CreditLineClosed,
  ObligationTerminated,
  ReportingStopped,
  RecordCorrected,
  RecordExcluded,
  RecordAnnulled,
] as const;
