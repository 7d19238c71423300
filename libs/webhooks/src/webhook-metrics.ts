import { counter, histogram } from '@platform/observability';

/**
 * Delivery attempts by schema (the service: verification, public_status) and outcome: `succeeded`
 * (2xx), `retry` (failed, another attempt is scheduled) and `dead` (out of attempts: a person looks,
 * docs/runbooks). `lost_lease` counts attempts recorded after another replica took the delivery over.
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
