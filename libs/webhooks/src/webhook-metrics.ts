import { counter, histogram } from '@platform/observability';

/** What an attempt ends as; `webhookDeliveries`'s `outcome` label. */
export const WEBHOOK_OUTCOMES = ['succeeded', 'retry', 'dead'] as const;
export type WebhookOutcome = (typeof WEBHOOK_OUTCOMES)[number];

/**
 * Delivery attempts by schema (the service: verification, public_status, lending) and outcome:
 * `succeeded` (2xx), `retry` (failed, another attempt is scheduled) and `dead` (out of attempts: a person
 * looks, docs/runbooks). `webhook_lost_leases_total` counts attempts recorded after another replica took
 * the delivery over.
 */
export const webhookDeliveries = counter({
  name: 'webhook_deliveries_total',
  help: 'Webhook delivery attempts by schema and outcome (succeeded, retry, dead).',
  labelNames: ['schema', 'outcome'] as const,
});

export const webhookAttemptDuration = histogram({
  name: 'webhook_attempt_duration_seconds',
  help: "Webhook attempts' duration (DNS, connect, TLS, request, answer), by schema and outcome.",
  labelNames: ['schema', 'outcome'] as const,
  buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 15],
});

export const webhookLostLeases = counter({
  name: 'webhook_lost_leases_total',
  help: 'Attempts whose delivery another replica had taken over by the time they were recorded.',
  labelNames: ['schema'] as const,
});

/**
 * Every series of a worker's schema at 0 from its start (the worker's constructor calls it), so the
 * first dead delivery of a pod is an increase from 0 that `increase()` sees: a counter series born at 1
 * shows no increase, and the alert PlatformWebhookDeliveriesDead (scripts/deploy/k8s-monitoring.ts)
 * would miss it.
 */
export function initWebhookMetrics(schema: string): void {
  for (const outcome of WEBHOOK_OUTCOMES) webhookDeliveries.labels({ schema, outcome }).inc(0);
  webhookLostLeases.labels({ schema }).inc(0);
}
