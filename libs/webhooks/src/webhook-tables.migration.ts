import type { MigrationInterface, QueryRunner } from 'typeorm';
import {
  dropWebhookEnabledDdl,
  dropWebhookTablesDdl,
  webhookEnabledDdl,
  webhookTablesDdl,
} from './webhook-tables';

/** Creates the webhook tables in a service's schema (the schema must exist: the service's first migration). */
export function webhookTablesMigration(name: string, schema: string): new () => MigrationInterface {
  return class WebhookTables implements MigrationInterface {
    name = name;

    async up(q: QueryRunner): Promise<void> {
      for (const ddl of webhookTablesDdl(schema)) await q.query(ddl);
    }

    async down(q: QueryRunner): Promise<void> {
      for (const ddl of dropWebhookTablesDdl(schema)) await q.query(ddl);
    }
  };
}

/** Adds `webhook_subscriptions.enabled` (pausing a subscription) after `webhookTablesMigration`. */
export function webhookEnabledMigration(name: string, schema: string): new () => MigrationInterface {
  return class WebhookEnabled implements MigrationInterface {
    name = name;

    async up(q: QueryRunner): Promise<void> {
      for (const ddl of webhookEnabledDdl(schema)) await q.query(ddl);
    }

    async down(q: QueryRunner): Promise<void> {
      for (const ddl of dropWebhookEnabledDdl(schema)) await q.query(ddl);
    }
  };
}
