import type { MigrationInterface, QueryRunner } from 'typeorm';
import { dropOutboxTablesDdl, outboxTablesDdl } from '@platform/outbox';
import { apiKeyTablesDdl, dropApiKeyTablesDdl } from '@platform/tenancy';

const KEYS = { ownerTable: 'products' };

export class InitCalendar1763701000000 implements MigrationInterface {
  name = 'InitCalendar1763701000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE calendar.accounts (
      id text PRIMARY KEY,
      name text NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now())`);
    // Source products and their keys, as every service with keys has them (libs/tenancy).
    for (const ddl of apiKeyTablesDdl('calendar', KEYS)) await q.query(ddl);
    await q.query(`CREATE TABLE calendar.events (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      account_id text NOT NULL REFERENCES calendar.accounts(id),
      product_id text NOT NULL REFERENCES calendar.products(id),
      entity_type text NOT NULL,
      entity_id text NOT NULL,
      version integer NOT NULL CHECK (version >= 1),
      title text,
      starts_at timestamptz,
      ends_at timestamptz,
      status text NOT NULL DEFAULT 'confirmed' CHECK (status IN ('confirmed', 'tentative', 'cancelled')),
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      CONSTRAINT events_identity_uq UNIQUE (account_id, product_id, entity_type, entity_id),
      CONSTRAINT events_time_order_ck CHECK (ends_at IS NULL OR starts_at IS NULL OR ends_at >= starts_at))`);
    for (const ddl of outboxTablesDdl('calendar')) await q.query(ddl);
  }

  async down(q: QueryRunner): Promise<void> {
    for (const ddl of dropOutboxTablesDdl('calendar')) await q.query(ddl);
    await q.query('DROP TABLE calendar.events');
    for (const ddl of dropApiKeyTablesDdl('calendar', KEYS)) await q.query(ddl);
    await q.query('DROP TABLE calendar.accounts');
  }
}
