import type { MigrationInterface, QueryRunner } from 'typeorm';
import { GATEWAY_SCHEMA } from '../rate-limit/gateway-database';

/**
 * Per-IP allowance handed out to gateway replicas, one row per budget bucket and window (decision 0022).
 * `window_start` leads the key so the purge of ended windows is a range scan. Claims only update
 * `granted`/`last_grant` (no indexed column), so with free space on the page they stay heap-only.
 */
export class RateLimitLeases1763900000000 implements MigrationInterface {
  name = 'RateLimitLeases1763900000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE "${GATEWAY_SCHEMA}".rate_limit_leases (
      window_start timestamptz NOT NULL,
      bucket text NOT NULL,
      granted integer NOT NULL CHECK (granted >= 0),
      last_grant integer NOT NULL,
      PRIMARY KEY (window_start, bucket)) WITH (fillfactor = 70)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE "${GATEWAY_SCHEMA}".rate_limit_leases`);
  }
}
