import { defineEventType, type ContractDefinition, type TopicContract } from '../contract';
import { instant, uuid, UUID_PATTERN, type Fields } from '../json-schema';

/**
 * Field schemas shared by the lending event types (lending-bureau.events.ts, lending-accounting.events.ts;
 * docs/lending/events.md). Money is an integer of minor units next to an ISO 4217 `currency`, rates are
 * decimal strings, dates ISO 8601: no binary float anywhere on the wire.
 */

/** The payload's own copy of the `schema-version` header: file exports (CSV) keep no headers. */
export const SCHEMA_VERSION = 1;

export const eventTypeField = <const T extends string>(type: T) =>
  ({
    type: 'string',
    const: type,
    description: 'The event type (the `event-type` header repeats it); names the schema of this payload.',
  }) as const;

export const schemaVersionField = {
  type: 'integer',
  const: SCHEMA_VERSION,
  description:
    "Version of this event type's schema; equals the topic's `vN` and the `schema-version` header.",
} as const;

export const organizationIdField = {
  type: 'string',
  minLength: 1,
  maxLength: 64,
  description:
    'The lender (the organization, the tenant) whose books this is; the `tenant-id` header repeats it.',
} as const;

export const currencyField = {
  type: 'string',
  pattern: '^[A-Z]{3}$',
  description: 'ISO 4217 alphabetic code of every amount of the event (the agreement currency), e.g. `RUB`.',
} as const;

/** Largest integer a JavaScript consumer reads exactly; amounts never come near it. */
const MAX_MINOR = Number.MAX_SAFE_INTEGER;

/** A non-negative amount in minor units of `currency` (kopecks, cents, tiyn). */
export const money = (description: string) =>
  ({
    type: 'integer',
    minimum: 0,
    maximum: MAX_MINOR,
    description: `${description} Integer, in minor units of \`currency\`.`,
  }) as const;

/** A strictly positive amount in minor units. */
export const positiveMoney = (description: string) =>
  ({
    type: 'integer',
    minimum: 1,
    maximum: MAX_MINOR,
    description: `${description} Integer, in minor units of \`currency\`.`,
  }) as const;

export const nullableMoney = (description: string) =>
  ({
    type: ['integer', 'null'],
    minimum: 0,
    maximum: MAX_MINOR,
    description: `${description} Integer, in minor units of \`currency\`; null when it does not apply.`,
  }) as const;

const DATE_PATTERN = '^\\d{4}-\\d{2}-\\d{2}$';

/** A calendar day, ISO 8601 `YYYY-MM-DD`, in the lender's business calendar (no time, no zone). */
export const date = (description: string) =>
  ({ type: 'string', format: 'date', pattern: DATE_PATTERN, description }) as const;

export const nullableDate = (description: string) =>
  ({ type: ['string', 'null'], format: 'date', pattern: DATE_PATTERN, description }) as const;

/** A percent per annum as the lending API writes it: "8", "19.99", "0.05" (no sign, no exponent). */
export const rate = (description: string) =>
  ({
    type: 'string',
    pattern: '^(0|[1-9][0-9]{0,3})(\\.[0-9]{1,10})?$',
    description: `${description} Percent per annum, a decimal string (e.g. "19.99"), never a float.`,
  }) as const;

export const nullableUuid = (description: string) =>
  ({ type: ['string', 'null'], format: 'uuid', pattern: UUID_PATTERN, description }) as const;

export const count = (description: string, minimum = 0) =>
  ({ type: 'integer', minimum, maximum: 1_000_000_000, description }) as const;

export const text = (description: string, maxLength = 500) =>
  ({ type: 'string', minLength: 1, maxLength, description }) as const;

export const nullableText = (description: string, maxLength = 500) =>
  ({ type: ['string', 'null'], minLength: 1, maxLength, description }) as const;

export const oneOf = <const V extends readonly string[]>(values: V, description: string) =>
  ({ type: 'string', enum: values, description }) as const;

export const agreementIdField = uuid(
  "The credit agreement (the message key): the loan's id for a stand-alone loan, the credit line's id " +
    'for a line and every tranche drawn under it, so all of them stay in order on one partition.',
);

export const agreementTypeField = oneOf(
  ['loan', 'credit-line'],
  '`loan`: a loan contract; `credit-line`: a credit line agreement (its tranches are loans under it).',
);

export const loanIdField = nullableUuid(
  'The loan the event concerns: the agreement itself for a stand-alone loan, the tranche for a credit ' +
    'line; null when the event concerns the credit line as a whole.',
);

export const occurredAtField = instant('When the change was committed (the outbox row was written).');

/** What the lending ledger's debt components are called (the allocation order names them). */
export const DEBT_COMPONENTS = [
  'fees',
  'penalties',
  'overdueInterest',
  'overduePrincipal',
  'currentInterest',
  'currentPrincipal',
] as const;

/** An amount per debt component, e.g. how a payment was split. */
export const componentAmounts = (description: string) =>
  ({
    type: 'object',
    additionalProperties: false,
    required: DEBT_COMPONENTS,
    properties: {
      fees: money('Fees.'),
      penalties: money('Penalties (late-payment interest, fines).'),
      overdueInterest: money('Interest that was past due.'),
      overduePrincipal: money('Principal that was past due.'),
      currentInterest: money('Interest not yet past due.'),
      currentPrincipal: money('Principal not yet past due.'),
    },
    description,
  }) as const;

/** The debt after the event, as the bureau formats report it. */
export const balancesField = {
  type: 'object',
  additionalProperties: false,
  required: [
    'principal',
    'interest',
    'fees',
    'penalties',
    'overduePrincipal',
    'overdueInterest',
    'total',
    'daysPastDue',
  ],
  properties: {
    principal: money('Principal owed, overdue included.'),
    interest: money('Accrued interest owed, overdue included.'),
    fees: money('Fees owed.'),
    penalties: money('Penalties owed.'),
    overduePrincipal: money('Of `principal`, the part past its due date.'),
    overdueInterest: money('Of `interest`, the part past its due date.'),
    total: money('Everything owed: principal + interest + fees + penalties.'),
    daysPastDue: count('Days since the oldest unpaid due date; 0 when nothing is overdue.'),
  },
  description: 'The debt right after the event (the balances the ledger derives), in `currency`.',
} as const;

export { instant, uuid };

/**
 * A lending event type on `topic`, written by the lending service. The payload type `P` is computed by
 * the caller from the same fields (a generic helper cannot prove its key is one of them: the run-time
 * check in `defineEventType` does).
 */
export function lendingEventType<P>(d: {
  topic: string;
  eventType: string;
  aggregateType: string;
  key: string;
  description: string;
  schema: Fields;
  example: unknown;
}): TopicContract<P> {
  const definition = { ...d, schemaVersion: SCHEMA_VERSION, producers: ['lending'] };
  return defineEventType(definition as unknown as ContractDefinition<Fields>) as unknown as TopicContract<P>;
}
