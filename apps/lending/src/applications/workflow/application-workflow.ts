/**
 * The application workflow (docs/lending/applications.md): the statuses, the named actions that move
 * an application, and the one table of allowed moves. Pure, so the rules are unit-tested and the
 * dictionary (GetApplicationStatuses) is read from the same table the service enforces.
 */

import type { StandingOperation } from '../../customers/customer-standing';

export const APPLICATION_STATUSES = [
  'draft',
  'submitted',
  'checks_in_progress',
  'under_review',
  'approved',
  'declined',
  'counter_offered',
  'accepted',
  'rejected_by_customer',
  'withdrawn',
  'expired',
  'cancelled',
] as const;
export type ApplicationStatus = (typeof APPLICATION_STATUSES)[number];

/**
 * The named actions. Each is a POST route of the same name, except `ChecksCompleted`: the decision
 * rules take it when the last check step has answered (docs: "Decision rules").
 */
export const APPLICATION_ACTIONS = [
  'CreateApplication',
  'SubmitApplication',
  'CancelApplication',
  'WithdrawApplication',
  'RunChecks',
  'ChecksCompleted',
  'MakeDecision',
  'AcceptOffer',
  'RejectOffer',
  'ExpireApplication',
] as const;
export type ApplicationAction = (typeof APPLICATION_ACTIONS)[number];

/** Who may take a move: the caller's key, or the decision rules after the checks. */
export type MoveActor = 'key' | 'rules';

export interface Transition {
  from: ApplicationStatus;
  to: ApplicationStatus;
  action: ApplicationAction;
  by: MoveActor;
  /**
   * The move starts new business with the customer (a submission, an approval, an offer, its
   * acceptance): it needs the customer's standing for the operation of the same name
   * (customers/customer-standing.ts) and the product's required consents in force.
   */
  business: boolean;
}

/** The moves that need the customer's standing: their action is also a StandingOperation. */
type BusinessAction = Extract<ApplicationAction, StandingOperation>;

function t(
  from: ApplicationStatus,
  to: ApplicationStatus,
  action: ApplicationAction,
  by?: MoveActor,
): Transition;
function t(
  from: ApplicationStatus,
  to: ApplicationStatus,
  action: BusinessAction,
  by: MoveActor,
  business: 'business',
): Transition;
function t(
  from: ApplicationStatus,
  to: ApplicationStatus,
  action: ApplicationAction,
  by: MoveActor = 'key',
  business?: 'business',
): Transition {
  return { from, to, action, by, business: business === 'business' };
}

/** Every allowed move; anything else is APPLICATION_TRANSITION_NOT_ALLOWED (409). */
export const TRANSITIONS: readonly Transition[] = [
  t('draft', 'submitted', 'SubmitApplication', 'key', 'business'),
  t('draft', 'cancelled', 'CancelApplication'),
  t('submitted', 'checks_in_progress', 'RunChecks'),
  t('submitted', 'cancelled', 'CancelApplication'),
  t('submitted', 'withdrawn', 'WithdrawApplication'),
  t('checks_in_progress', 'approved', 'ChecksCompleted', 'rules', 'business'),
  t('checks_in_progress', 'declined', 'ChecksCompleted', 'rules'),
  t('checks_in_progress', 'under_review', 'ChecksCompleted', 'rules'),
  t('checks_in_progress', 'withdrawn', 'WithdrawApplication'),
  t('under_review', 'approved', 'MakeDecision', 'key', 'business'),
  t('under_review', 'declined', 'MakeDecision'),
  t('under_review', 'counter_offered', 'MakeDecision', 'key', 'business'),
  t('under_review', 'withdrawn', 'WithdrawApplication'),
  t('approved', 'accepted', 'AcceptOffer', 'key', 'business'),
  t('approved', 'rejected_by_customer', 'RejectOffer'),
  t('approved', 'expired', 'ExpireApplication'),
  t('counter_offered', 'accepted', 'AcceptOffer', 'key', 'business'),
  t('counter_offered', 'rejected_by_customer', 'RejectOffer'),
  t('counter_offered', 'expired', 'ExpireApplication'),
];

/**
 * The statuses a loan contract may be made from (CreateLoan, origination/): approved, or its offer
 * accepted by the customer.
 */
export const LENDABLE_STATUSES: readonly ApplicationStatus[] = ['approved', 'accepted'];

/** The standing operation a move needs, or null when it starts no new business. */
export function standingOperationOf(tr: Transition): StandingOperation | null {
  return tr.business ? (tr.action as BusinessAction) : null;
}

/** Statuses no move leaves. */
export const TERMINAL_STATUSES: readonly ApplicationStatus[] = APPLICATION_STATUSES.filter(
  (s) => !TRANSITIONS.some((x) => x.from === s),
);

export function isApplicationStatus(v: string): v is ApplicationStatus {
  return (APPLICATION_STATUSES as readonly string[]).includes(v);
}

/** The moves out of `from` (a status the table does not know, e.g. a legacy row's, has none). */
export function transitionsFrom(from: string): Transition[] {
  return TRANSITIONS.filter((x) => x.from === from);
}

/** The move `action` takes from `from` to `to`, or null when the table does not allow it. */
export function findTransition(
  from: string,
  to: ApplicationStatus,
  action: ApplicationAction,
  by: MoveActor,
): Transition | null {
  return (
    TRANSITIONS.find((x) => x.from === from && x.to === to && x.action === action && x.by === by) ?? null
  );
}

/** A check run whose claim is older than this is taken over by the next RunChecks (a crashed run). */
export const CHECKS_LEASE_MS = 5 * 60_000;

/** Whether a run that claimed the checks at `claimedAt` may be taken over at `now`. */
export function checksClaimExpired(claimedAt: Date | null, now: Date): boolean {
  return !claimedAt || now.getTime() - claimedAt.getTime() >= CHECKS_LEASE_MS;
}
