import type { MigrationInterface, QueryRunner } from 'typeorm';
import { quoteSchema } from '@platform/outbox';
import { service } from '@platform/registry';

const S = quoteSchema(service('public-status').schema);

/**
 * Anonymous subscribers (decision 0024) and their mail outbox. A subscriber is an email address (double
 * opt-in) or a webhook subscription of libs/webhooks (its tables: migration 1763820000001), to a whole
 * business (`product_ids` empty) or some products. `mail_outbox` rows are written in the transaction of
 * the incident or maintenance change they announce, and claimed by any replica's mail worker with
 * FOR UPDATE SKIP LOCKED leases (the same scheme as webhook deliveries).
 */
export class Subscribers1763820000000 implements MigrationInterface {
  name = 'Subscribers1763820000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE ${S}.subscribers (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      public_id text NOT NULL UNIQUE,
      business_id text NOT NULL REFERENCES ${S}.businesses (id),
      kind text NOT NULL CHECK (kind IN ('email', 'webhook')),
      email text,
      webhook_subscription_id uuid,
      product_ids uuid[] NOT NULL DEFAULT '{}',
      confirm_nonce text,
      confirm_expires_at timestamptz,
      confirmed_at timestamptz,
      unsubscribed_at timestamptz,
      created_at timestamptz NOT NULL DEFAULT now(),
      CHECK ((kind = 'email') = (email IS NOT NULL)),
      CHECK ((kind = 'webhook') = (webhook_subscription_id IS NOT NULL)))`);
    await q.query(`CREATE UNIQUE INDEX subscribers_business_email_uq ON ${S}.subscribers (business_id, email)
      WHERE email IS NOT NULL`);
    await q.query(`CREATE INDEX subscribers_active_idx ON ${S}.subscribers (business_id, kind)
      WHERE confirmed_at IS NOT NULL AND unsubscribed_at IS NULL`);
    await q.query(`CREATE TABLE ${S}.mail_outbox (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      subscriber_id uuid NOT NULL REFERENCES ${S}.subscribers (id) ON DELETE CASCADE,
      kind text NOT NULL CHECK (kind IN ('confirm', 'notification')),
      event_id text NOT NULL,
      subject text NOT NULL,
      body text NOT NULL,
      status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'sending', 'sent', 'dead', 'dropped')),
      attempts int NOT NULL DEFAULT 0,
      next_attempt_at timestamptz NOT NULL DEFAULT now(),
      lease_owner text,
      last_error text,
      created_at timestamptz NOT NULL DEFAULT now(),
      finished_at timestamptz,
      UNIQUE (subscriber_id, event_id))`);
    await q.query(`CREATE INDEX mail_outbox_due_idx ON ${S}.mail_outbox (next_attempt_at)
      WHERE status IN ('pending', 'sending')`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE ${S}.mail_outbox`);
    await q.query(`DROP TABLE ${S}.subscribers`);
  }
}
