import { tenantPoliciesMigration } from '@platform/persistence';

/**
 * Row-level security with FORCE on libs/webhooks' tables too (decision 0032): their `tenant_id` is the
 * organization, so the policy reads the organization's own setting (`verification.organization_id`). Deliveries enqueued in a
 * transaction the tenant door has switched are the organization's own; the delivery worker and the webhook
 * management run as the migrating user (`service_jobs`).
 */
export const WebhookTenantIsolation1764310000000 = tenantPoliciesMigration(
  'WebhookTenantIsolation1764310000000',
  'verification',
  ['webhook_subscriptions', 'webhook_deliveries', 'webhook_delivery_attempts'].map((table) => ({
    table,
    column: 'tenant_id',
    settingColumn: 'organization_id',
  })),
);
