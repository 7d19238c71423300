import type { ConsentAction, ConsentType } from './consents/consent-rules';
import { CUSTOMER_STATUSES, type CustomerStatus } from './customer-statuses';

/**
 * What a customer's status lets the lender start with them (docs/lending/customers.md, "Standing").
 * One table, read by the one check (CustomerStandingCheck) every operation below goes through, by the
 * docs and by the integration test that walks every (status, operation) pair.
 *
 * The operations are the API actions that start new business or move money to the customer, named as
 * their routes are; `ChecksCompleted` is the decision rules' approval after RunChecks, and
 * `MakeDecision` a person's approval or counter-offer (declining is always allowed).
 */
export const STANDING_OPERATIONS = [
  'CreateApplication',
  'SubmitApplication',
  'ChecksCompleted',
  'MakeDecision',
  'AcceptOffer',
  'CreateLoan',
  'DisburseLoan',
  'MakePayment',
] as const;
export type StandingOperation = (typeof STANDING_OPERATIONS)[number];

/**
 * The operations each status allows; any other is refused with CUSTOMER_NOT_IN_GOOD_STANDING (409)
 * and writes nothing. Repaying an existing loan is not new business: a blocked or closed customer
 * keeps paying.
 */
export const CUSTOMER_STANDING: Readonly<Record<CustomerStatus, readonly StandingOperation[]>> = {
  active: STANDING_OPERATIONS,
  blocked: ['MakePayment'],
  closed: ['MakePayment'],
};

/**
 * The operations that need every consent the loan product requires (`requiredConsents`) in force:
 * the latest event of its type is `given`. Creating a draft does not (the consents may be collected
 * before submission); paying never does.
 */
export const CONSENT_GATED_OPERATIONS: readonly StandingOperation[] = [
  'SubmitApplication',
  'ChecksCompleted',
  'MakeDecision',
  'AcceptOffer',
  'CreateLoan',
  'DisburseLoan',
];

/**
 * How a refusal shows. The decision rules' approval is not a request the caller can be refused: when
 * the rules would approve a customer who may not start new business, the application goes to
 * `under_review` instead (reason `approval held: ...`), for a person to decline, or to approve once
 * the customer is back in standing. Every other refusal is the coded 409 and writes nothing.
 */
export const HELD_FOR_REVIEW: readonly StandingOperation[] = ['ChecksCompleted'];

export function mayStart(status: CustomerStatus, operation: StandingOperation): boolean {
  return CUSTOMER_STANDING[status].includes(operation);
}

export function isCustomerStatus(s: string): s is CustomerStatus {
  return (CUSTOMER_STATUSES as readonly string[]).includes(s);
}

/**
 * The first required consent that is not in force (never given, or withdrawn), with where it stands,
 * or null. `current`: the latest event of each type the customer has.
 */
export function firstMissingConsent(
  required: readonly string[],
  current: readonly { type: ConsentType; action: ConsentAction }[],
): { type: string; state: 'none' | 'withdrawn' } | null {
  for (const type of required) {
    const latest = current.find((c) => c.type === type);
    if (latest?.action !== 'given') return { type, state: latest ? 'withdrawn' : 'none' };
  }
  return null;
}
