import { service } from '@platform/registry';
import { webhookTablesMigration } from '@platform/webhooks';

/** libs/webhooks' tables in public-status's schema: webhook subscribers of status pages (decision 0018). */
export const WebhookTables1763820000001 = webhookTablesMigration(
  'WebhookTables1763820000001',
  service('public-status').schema,
);
