import { bureauUidOf } from '../../loans/events/bureau-uid';
import { ev, type LoanEvent } from '../../loans/events/event-payloads';
import { bpsToPercent } from '../../loans/loan-terms';
import type { LoanApplication } from '../application.entity';
import type { DecisionReason } from '../decisions/decision-reasons';
import { REFERENCE_ANNUAL_RATE_BPS } from '../providers/affordability.calculator';
import type { ApplicationStatus } from './application-workflow';

/**
 * The bureau's application events (docs/lending/events.md, 758-P 1.1–1.3): which move of the workflow
 * announces what, and with which payload. Pure; ApplicationWorkflowService writes them through
 * LoanEvents (the one emitter) in the move's transaction.
 *
 * - to submitted: application-submitted (1.1);
 * - to approved or counter_offered: application-approved (1.2), the offer's terms;
 * - to declined: application-refused (1.3), the decision's reason;
 * - to cancelled after submission (the lender ends it): application-refused, reason `other`;
 * - to withdrawn or rejected_by_customer: application-withdrawn by the applicant;
 * - to expired: application-withdrawn, the offer expired;
 * - to checks_in_progress, under_review or accepted, and a draft cancelled: nothing.
 *
 * A draft is the partner's working copy: the subject has applied only once it is submitted, so its
 * creation, changes and cancellation are not reported. Acceptance is reported by the contract made
 * from the application (`loan-contract-concluded`, which carries `applicationId`). Nothing changes an
 * application's terms after submission yet, so `application-changed` has no move.
 */

/** How long an offer stands, reported as `offerValidUntil` (nothing expires it by itself yet). */
export const OFFER_VALID_DAYS = 14;

/** What the decision behind a move offered, and why (the decision row's reasons and offer). */
export interface MoveDecision {
  reasons: readonly string[];
  offer: { amount: number; termMonths: number; annualRateBps: number | null } | null;
}

/** The request an application makes once submitted (a pre-issue-12 row may lack it: not reported). */
interface Request {
  customerId: string;
  amount: number;
  currency: string;
  termMonths: number;
}

type Refusal =
  | 'credit-policy'
  | 'insufficient-income'
  | 'debt-burden'
  | 'credit-history'
  | 'identity-not-confirmed'
  | 'fraud-suspected'
  | 'incomplete-application'
  | 'other';

/**
 * Our decision reasons in the contract's refusal reasons (which the reporter maps to 758-P's
 * reference). A reason that is not a refusal's, or has no closer match (an AML hit is a compliance
 * refusal, not a credit one), is `other`.
 */
const REFUSAL_OF: Partial<Record<DecisionReason, Refusal>> = {
  IDENTITY_NOT_CONFIRMED: 'identity-not-confirmed',
  ADVERSE_CREDIT_HISTORY: 'credit-history',
  NO_CREDIT_HISTORY: 'credit-history',
  SCORE_TOO_LOW: 'credit-policy',
  POLICY_CRITERIA_NOT_MET: 'credit-policy',
  // Affordability is the debt-to-income ratio (affordability.calculator.ts).
  NOT_AFFORDABLE: 'debt-burden',
};

/** The first of the decision's reasons that names a refusal reason, else `other`. */
export function refusalReason(reasons: readonly string[]): Refusal {
  for (const r of reasons) {
    const mapped = REFUSAL_OF[r as DecisionReason];
    if (mapped) return mapped;
  }
  return 'other';
}

/**
 * The nominal rate of an offer: the rate it names; else the rate of the lender's product the
 * application names (`productRate`, its `productCode` being the product's code); else the reference
 * rate the affordability check assessed the request at. The contract made later carries the rate
 * actually lent at (`loan-contract-concluded`).
 */
export function offeredRate(annualRateBps: number | null, productRate: string | null): string {
  if (annualRateBps !== null) return bpsToPercent(annualRateBps);
  return productRate ?? bpsToPercent(REFERENCE_ANNUAL_RATE_BPS);
}

const addDays = (day: string, days: number) =>
  new Date(Date.parse(`${day}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);

function requestOf(app: LoanApplication): Request | null {
  const { customerId, amount, currency, termMonths } = app;
  if (customerId === null || amount === null || currency === null || termMonths === null) return null;
  return { customerId, amount, currency, termMonths };
}

/**
 * The events of `app`'s move from `from` to `to` on `today`. `decision` is the decision a move to
 * approved, counter_offered or declined records; `rate` the offer's nominal rate (offeredRate).
 */
export function applicationEventsOf(
  app: LoanApplication,
  move: { from: string; to: ApplicationStatus; decision?: MoveDecision; rate?: string },
  today: string,
): LoanEvent[] {
  const request = requestOf(app);
  if (!request) return [];
  const common = {
    customerId: request.customerId,
    bureauUid: bureauUidOf(app.id),
    eventDate: today,
    applicationId: app.id,
  };
  const refused = (reason: Refusal) =>
    ev('lending.bureau.application-refused', {
      ...common,
      requestedAmount: request.amount,
      currency: request.currency,
      reason,
    });
  const withdrawn = (withdrawnBy: 'applicant' | 'offer-expired') =>
    ev('lending.bureau.application-withdrawn', { ...common, withdrawnBy });
  switch (move.to) {
    case 'submitted':
      return [
        ev('lending.bureau.application-submitted', {
          ...common,
          productType: 'loan',
          requestedAmount: request.amount,
          currency: request.currency,
          requestedTermMonths: request.termMonths,
        }),
      ];
    case 'approved':
    case 'counter_offered': {
      const offer = move.decision?.offer;
      if (!offer || move.rate === undefined) throw new Error(`a move to ${move.to} needs its offer and rate`);
      return [
        ev('lending.bureau.application-approved', {
          ...common,
          approvedAmount: offer.amount,
          currency: request.currency,
          termMonths: offer.termMonths,
          nominalRate: move.rate,
          offerValidUntil: addDays(today, OFFER_VALID_DAYS),
        }),
      ];
    }
    case 'declined':
      if (!move.decision) throw new Error('a move to declined needs its decision');
      return [refused(refusalReason(move.decision.reasons))];
    case 'cancelled':
      // The lender ends a submitted application (docs: cancel is the lender's); a draft was never reported.
      return move.from === 'draft' ? [] : [refused('other')];
    case 'withdrawn':
    case 'rejected_by_customer':
      return [withdrawn('applicant')];
    case 'expired':
      return [withdrawn('offer-expired')];
    case 'draft':
    case 'checks_in_progress':
    case 'under_review':
    case 'accepted':
      return [];
  }
}
