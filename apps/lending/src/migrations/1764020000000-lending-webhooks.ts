import type { MigrationInterface, QueryRunner } from 'typeorm';
import {
  dropWebhookEnabledDdl,
  dropWebhookTablesDdl,
  webhookEnabledDdl,
  webhookTablesDdl,
} from '@platform/webhooks';
import { TENANT_ROLE, TENANT_SETTING } from '../tenancy/tenant-rls';

const WEBHOOK_TABLES = ['webhook_subscriptions', 'webhook_deliveries', 'webhook_delivery_attempts'];

/**
 * Webhook subscriptions of the organizations, their deliveries and the delivery log (issue 14,
 * docs/lending/webhooks.md): libs/webhooks' tables in the lending schema, the same as verification's
 * and public-status'.
 *
 * Row-level security as every tenant table (decision 0025), but on the lib's `tenant_id` column and
 * not FORCEd: tenant transactions (role lending_tenant) see and write only their organization's rows,
 * while the delivery worker, which claims due deliveries of every organization at once as the outbox
 * relay does, connects as the tables' owner and is not bound by the policy.
 */
export class LendingWebhooks1764020000000 implements MigrationInterface {
  name = 'LendingWebhooks1764020000000';

  async up(q: QueryRunner): Promise<void> {
    for (const ddl of [...webhookTablesDdl('lending'), ...webhookEnabledDdl('lending')]) await q.query(ddl);
    const mine = `tenant_id = current_setting('${TENANT_SETTING}', true)`;
    for (const table of WEBHOOK_TABLES) {
      await q.query(`ALTER TABLE lending.${table} ENABLE ROW LEVEL SECURITY`);
      await q.query(
        `CREATE POLICY tenant_isolation ON lending.${table} USING (${mine}) WITH CHECK (${mine})`,
      );
      await q.query(`GRANT SELECT, INSERT, UPDATE, DELETE ON lending.${table} TO ${TENANT_ROLE}`);
    }
    // The log is the worker's to write: an organization reads it, never edits it.
    await q.query(`REVOKE INSERT, UPDATE, DELETE ON lending.webhook_delivery_attempts FROM ${TENANT_ROLE}`);
  }

  async down(q: QueryRunner): Promise<void> {
    for (const ddl of [...dropWebhookEnabledDdl('lending'), ...dropWebhookTablesDdl('lending')])
      await q.query(ddl);
  }
}
