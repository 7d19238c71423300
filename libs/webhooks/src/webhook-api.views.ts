import type { WebhookAttempt, WebhookDelivery } from './webhook-deliveries';
import type { WebhookSubscription } from './webhook-subscriptions.service';

/** A subscription as a webhook API answers it: never its secret (but at create and rotate, once). */
export interface WebhookSubscriptionView {
  id: string;
  url: string;
  events: string[];
  description: string | null;
  enabled: boolean;
  createdAt: string;
  updatedAt: string;
  secretRotatedAt: string | null;
  previousSecretValidUntil: string | null;
}

/** A delivery; `K` is what the service calls the subscription's id (`endpointId`, `subscriptionId`). */
export type WebhookDeliveryView<K extends string> = { id: string } & { [key in K]: string } & {
  event: string;
  eventId: string;
  status: string;
  attempts: number;
  nextAttemptAt: string | null;
  lastResponseStatus: number | null;
  lastError: string | null;
  createdAt: string;
  deliveredAt: string | null;
  deadAt: string | null;
};

export interface WebhookAttemptView {
  attemptNo: number;
  attemptedAt: string;
  responseStatus: number | null;
  error: string | null;
  latencyMs: number;
  responseBody: string | null;
  responseTruncated: boolean;
  outcome: string;
  nextAttemptAt: string | null;
}

const iso = (d: Date | null) => (d ? d.toISOString() : null);

export const webhookSubscriptionView = (s: WebhookSubscription): WebhookSubscriptionView => ({
  id: s.id,
  url: s.url,
  events: s.eventTypes,
  description: s.description,
  enabled: s.enabled,
  createdAt: s.createdAt.toISOString(),
  updatedAt: s.updatedAt.toISOString(),
  secretRotatedAt: iso(s.secretRotatedAt),
  previousSecretValidUntil: iso(s.previousSecretValidUntil),
});

export function webhookDeliveryView<K extends string>(
  d: WebhookDelivery,
  subscriptionKey: K,
): WebhookDeliveryView<K> {
  return {
    id: d.id,
    [subscriptionKey]: d.subscriptionId,
    event: d.eventType,
    eventId: d.eventId,
    status: d.status,
    attempts: d.attempts,
    nextAttemptAt: iso(d.nextAttemptAt),
    lastResponseStatus: d.lastStatus,
    lastError: d.lastError,
    createdAt: d.createdAt.toISOString(),
    deliveredAt: iso(d.deliveredAt),
    deadAt: iso(d.deadAt),
  } as WebhookDeliveryView<K>;
}

export const webhookAttemptView = (a: WebhookAttempt): WebhookAttemptView => ({
  attemptNo: a.attemptNo,
  attemptedAt: a.attemptedAt.toISOString(),
  responseStatus: a.httpStatus,
  error: a.error,
  latencyMs: a.latencyMs,
  responseBody: a.responseBody,
  responseTruncated: a.responseTruncated,
  outcome: a.outcome,
  nextAttemptAt: iso(a.nextAttemptAt),
});

/** A delivery with every attempt, oldest first (`attemptLog`). */
export const webhookDeliveryDetailView = <K extends string>(
  d: WebhookDelivery,
  attempts: WebhookAttempt[],
  subscriptionKey: K,
): WebhookDeliveryView<K> & { attemptLog: WebhookAttemptView[] } => ({
  ...webhookDeliveryView(d, subscriptionKey),
  attemptLog: attempts.map(webhookAttemptView),
});
