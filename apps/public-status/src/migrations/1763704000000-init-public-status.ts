import type { MigrationInterface, QueryRunner } from 'typeorm';
import { dropOutboxTablesDdl, outboxTablesDdl } from '@platform/outbox';

export class InitPublicStatus1763704000000 implements MigrationInterface {
  name = 'InitPublicStatus1763704000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE public_status.products (
      id text PRIMARY KEY,
      name text NOT NULL,
      published boolean NOT NULL DEFAULT false,
      state text NOT NULL DEFAULT 'operational'
        CHECK (state IN ('operational', 'degraded_performance', 'partial_outage', 'major_outage', 'under_maintenance')),
      created_at timestamptz NOT NULL DEFAULT now())`);
    for (const ddl of outboxTablesDdl('public_status')) await q.query(ddl);
  }

  async down(q: QueryRunner): Promise<void> {
    for (const ddl of dropOutboxTablesDdl('public_status')) await q.query(ddl);
    await q.query('DROP TABLE public_status.products');
  }
}
