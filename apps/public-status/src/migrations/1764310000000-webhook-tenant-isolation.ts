import { tenantPoliciesMigration } from '@platform/persistence';

/**
 * Row-level security with FORCE on libs/webhooks' tables too (decision 0032): their `tenant_id` is the
 * business, so the policy reads the business's own setting (`public_status.business_id`). Deliveries enqueued in a
 * transaction the tenant door has switched are the business's own; the delivery worker and the webhook
 * management run as the migrating user (`service_jobs`).
 */
export const WebhookTenantIsolation1764310000000 = tenantPoliciesMigration(
  'WebhookTenantIsolation1764310000000',
  'public_status',
  ['webhook_subscriptions', 'webhook_deliveries', 'webhook_delivery_attempts'].map((table) => ({
    table,
    column: 'tenant_id',
    settingColumn: 'business_id',
  })),
);
