import { service } from '@platform/registry';
import { webhookEnabledMigration } from '@platform/webhooks';

/** libs/webhooks' second step: `webhook_subscriptions.enabled`, so an endpoint can be paused. */
export const WebhookEnabled1763910500000 = webhookEnabledMigration(
  'WebhookEnabled1763910500000',
  service('verification').schema,
);
