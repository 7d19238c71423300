import { defineEventFamily, violations, type EventOf, type TopicContract } from '../contract';
import { ACCOUNTING_EVENT_CONTRACTS, LENDING_ACCOUNTING_TOPIC } from './lending-accounting.events';
import { BUREAU_EVENT_CONTRACTS, LENDING_BUREAU_TOPIC, type Report758 } from './lending-bureau.events';

/**
 * The lending service's two outgoing topics (docs/lending/events.md): one per audience, each carrying
 * all of that audience's event types, so a consumer reads one agreement's events in the order they
 * happened, whatever their types (key = the agreement; the event type is the `event-type` header and
 * the payload's `eventType`).
 *
 * Write each event with its type's contract, in the transaction of the change:
 * `outbox.append(tx, lendingEventContract('lending.bureau.payment-received'), payload, { tenantId })`.
 */
export const LendingBureauEvents = defineEventFamily({
  topic: LENDING_BUREAU_TOPIC,
  schemaVersion: 1,
  description:
    'What the credit bureaus need of loan applications, loan contracts and credit lines, one event type ' +
    "per fact, each mapped to the Bank of Russia's Regulation 758-P event it is reported as " +
    '(docs/lending/events.md). Keyed by the agreement (by the application before there is one).',
  producers: ['lending'],
  members: BUREAU_EVENT_CONTRACTS,
});

export const LendingAccountingEvents = defineEventFamily({
  topic: LENDING_ACCOUNTING_TOPIC,
  schemaVersion: 1,
  description:
    'Every money operation of the loan ledger as balanced postings (debit/credit pairs in minor units), ' +
    'and the close of each accounting day with its control totals (docs/lending/events.md). Keyed by ' +
    'the agreement (the day close by the organization). The daily accounting file holds the same events.',
  producers: ['lending'],
  members: ACCOUNTING_EVENT_CONTRACTS,
});

export type LendingBureauEvent = EventOf<typeof LendingBureauEvents>;
export type LendingAccountingEvent = EventOf<typeof LendingAccountingEvents>;
export type LendingEvent = LendingBureauEvent | LendingAccountingEvent;

export type BureauEventType = LendingBureauEvent['eventType'];
export type AccountingEventType = LendingAccountingEvent['eventType'];
export type LendingEventType = LendingEvent['eventType'];
/** The payload of one event type: `LendingEventOf<'lending.bureau.loan-disbursed'>`. */
export type LendingEventOf<T extends LendingEventType> = Extract<LendingEvent, { eventType: T }>;

export const BUREAU_EVENT_TYPES = BUREAU_EVENT_CONTRACTS.map(
  (c) => c.eventType,
) as readonly BureauEventType[];
export const ACCOUNTING_EVENT_TYPES = ACCOUNTING_EVENT_CONTRACTS.map(
  (c) => c.eventType,
) as readonly AccountingEventType[];

const BY_TYPE: ReadonlyMap<string, TopicContract<unknown>> = new Map(
  [...BUREAU_EVENT_CONTRACTS, ...ACCOUNTING_EVENT_CONTRACTS].map((c) => [
    c.eventType,
    c as unknown as TopicContract<unknown>,
  ]),
);

/** The contract an event of `type` is written with (its topic, key, aggregate type and schema). */
export function lendingEventContract<T extends LendingEventType>(type: T): TopicContract<LendingEventOf<T>> {
  const contract = BY_TYPE.get(type);
  if (!contract) throw new Error(`no lending event type ${type}`);
  return contract as TopicContract<LendingEventOf<T>>;
}

/** The problems of `payload` as an event of `type` (empty when valid): the validator the outbox runs. */
export function lendingEventViolations(type: string, payload: unknown): string[] {
  const contract = BY_TYPE.get(type);
  if (!contract) return [`eventType must be a lending event type, not ${type}`];
  return violations(contract, payload);
}

/** How each bureau event type is reported under Regulation 758-P (event codes and how sure). */
export const BUREAU_758P_EVENTS = Object.fromEntries(
  BUREAU_EVENT_CONTRACTS.map((c) => [c.eventType, c.report758]),
) as Readonly<Record<BureauEventType, Report758>>;

export { LENDING_BUREAU_TOPIC, LENDING_ACCOUNTING_TOPIC, type Report758 };
export { ACCOUNTING_LEDGER_ACCOUNTS, type AccountingLedgerAccount } from './lending-accounting.events';
