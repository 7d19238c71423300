import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Free/busy and slot search ask "which events of this account overlap [from, to)" over weeks or
 * months. The btree indexes bound only one side of the overlap, so for an account with a long history
 * the planner read the whole table (100,000 events: a sequential scan, 77 ms per call; bench
 * freebusy.bench.ts). A GiST index on (account, period) answers `&&` directly from both sides.
 * btree_gist gives GiST the account's equality; it is a trusted extension (PostgreSQL 13+), so the
 * database owner may create it without superuser rights, also on managed PostgreSQL.
 *
 * Like EventsEndTimeIndex, a plain CREATE INDEX inside the migration's transaction; for a large table
 * build it by hand first with CONCURRENTLY (same definition), and IF NOT EXISTS then finds it.
 */
export class EventsPeriodIndex1763745000000 implements MigrationInterface {
  name = 'EventsPeriodIndex1763745000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE EXTENSION IF NOT EXISTS btree_gist`);
    await q.query(
      `CREATE INDEX IF NOT EXISTS events_account_period_idx ON calendar.events
         USING gist (account_id, tstzrange(starts_at, ends_at, '[)'))`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX calendar.events_account_period_idx`);
  }
}
