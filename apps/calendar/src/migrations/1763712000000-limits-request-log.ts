import type { MigrationInterface, QueryRunner } from 'typeorm';
import { rateLimitTableDdl } from '@platform/persistence';

/** Shared write-rate counters and the request log of non-default keys. */
export class LimitsRequestLog1763712000000 implements MigrationInterface {
  name = 'LimitsRequestLog1763712000000';

  async up(q: QueryRunner): Promise<void> {
    for (const ddl of rateLimitTableDdl('calendar')) await q.query(ddl);
    await q.query(`CREATE TABLE calendar.request_log (
      id bigserial PRIMARY KEY,
      at timestamptz NOT NULL DEFAULT now(),
      key_id text NOT NULL,
      product_id text NOT NULL,
      account_id text,
      method text NOT NULL,
      path text NOT NULL,
      status integer NOT NULL,
      latency_ms integer NOT NULL,
      request_id text)`);
    await q.query(`CREATE INDEX request_log_key_at_idx ON calendar.request_log (key_id, at)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE calendar.request_log');
    await q.query('DROP TABLE calendar.rate_limit_windows');
  }
}
