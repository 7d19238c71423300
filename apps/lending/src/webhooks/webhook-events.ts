import { createHash } from 'node:crypto';
import { ACCOUNTING_EVENT_TYPES, BUREAU_EVENT_TYPES, type LendingEventType } from '@platform/messaging';

/**
 * Notification events: what a lender's own systems (a CRM, an SMS sender) want to hear about a loan,
 * derived from the contract events that say the same thing to a bureau (docs/lending/webhooks.md,
 * "Notifications"). Delivered by webhook only; the contract events themselves go to Kafka too.
 */
export const NOTIFICATION_EVENT_TYPES = [
  'lending.notification.payment-overdue',
  'lending.notification.repayment-received',
  'lending.notification.loan-repaid',
] as const;
export type NotificationEventType = (typeof NOTIFICATION_EVENT_TYPES)[number];

/** Every event a subscription may choose: the notifications, then the 33 bureau and 33 accounting types. */
export const WEBHOOK_EVENT_TYPES: readonly string[] = [
  ...NOTIFICATION_EVENT_TYPES,
  ...BUREAU_EVENT_TYPES,
  ...ACCOUNTING_EVENT_TYPES,
];

export interface WebhookNotification {
  type: NotificationEventType;
  /** Derived from the source event's id, so writing the same source twice enqueues nothing new. */
  eventId: string;
  data: Record<string, unknown>;
}

type Payload = Record<string, unknown> & { balances?: { total?: number; daysPastDue?: number } };

/**
 * A UUID (version 8, RFC 9562: custom) made from the source event's id and the notification type: the
 * same pair always gives the same id, a receiver dedupes on it like on any event id.
 */
export function derivedEventId(sourceEventId: string, type: string): string {
  const h = createHash('sha256').update(`${sourceEventId}\n${type}`).digest();
  h[6] = (h[6] & 0x0f) | 0x80;
  h[8] = (h[8] & 0x3f) | 0x80;
  const x = h.subarray(0, 16).toString('hex');
  return `${x.slice(0, 8)}-${x.slice(8, 12)}-${x.slice(12, 16)}-${x.slice(16, 20)}-${x.slice(20)}`;
}

/** What every notification says about the loan and where it came from. */
function common(sourceEventId: string, p: Payload) {
  return {
    sourceEventId,
    sourceEventType: p.eventType,
    organizationId: p.organizationId,
    loanId: p.loanId,
    agreementId: p.agreementId,
    customerId: p.customerId,
    occurredAt: p.occurredAt,
  };
}

/**
 * The notifications a contract event gives rise to: an overdue payment (`overdue-started`, written by
 * the accruals job on the first day past due), a repayment (`payment-received`, every payment) and the
 * end of the loan (`loan-repaid`). Whoever emits these through LoanEvents gets the notifications too.
 */
export function notificationsOf(
  type: LendingEventType,
  sourceEventId: string,
  p: Payload,
): WebhookNotification[] {
  const make = (t: NotificationEventType, data: Record<string, unknown>): WebhookNotification => ({
    type: t,
    eventId: derivedEventId(sourceEventId, t),
    data: { ...common(sourceEventId, p), ...data },
  });
  switch (type) {
    case 'lending.bureau.overdue-started':
      return [
        make('lending.notification.payment-overdue', {
          overdueSince: p.overdueSince,
          overdueAmount: p.overdueAmount,
          currency: p.currency,
          daysPastDue: p.balances?.daysPastDue ?? null,
          totalOutstanding: p.balances?.total ?? null,
        }),
      ];
    case 'lending.bureau.payment-received':
      return [
        make('lending.notification.repayment-received', {
          paymentId: p.paymentId,
          kind: p.kind,
          amount: p.amount,
          currency: p.currency,
          paidOn: p.eventDate,
          nextPaymentDate: p.nextPaymentDate ?? null,
          nextPaymentAmount: p.nextPaymentAmount ?? null,
          totalOutstanding: p.balances?.total ?? null,
          daysPastDue: p.balances?.daysPastDue ?? null,
        }),
      ];
    case 'lending.bureau.loan-repaid':
      return [
        make('lending.notification.loan-repaid', {
          early: p.early,
          lastPaymentId: p.lastPaymentId ?? null,
          currency: p.currency,
          repaidOn: p.eventDate,
        }),
      ];
    default:
      return [];
  }
}
