import { service } from '@platform/registry';
import { webhookEnabledMigration } from '@platform/webhooks';

/** libs/webhooks' second step (`webhook_subscriptions.enabled`, pausing a subscription; decision 0018). */
export const WebhookEnabled1763850000000 = webhookEnabledMigration(
  'WebhookEnabled1763850000000',
  service('public-status').schema,
);
