import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * iCalendar TRANSP on events: `transparent` events (reminders, holds that block nothing) are left out
 * of free/busy and slot search, as issue 10 and RFC 5545 3.8.2.7 ask. Existing events stay opaque.
 * Adding a column with a constant default rewrites nothing (PostgreSQL 11+).
 */
export class EventTransparency1763770000000 implements MigrationInterface {
  name = 'EventTransparency1763770000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE calendar.events ADD COLUMN transparency text NOT NULL DEFAULT 'opaque'`);
    await q.query(
      `ALTER TABLE calendar.events ADD CONSTRAINT events_transparency_check CHECK (transparency IN ('opaque', 'transparent'))`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE calendar.events DROP COLUMN transparency`);
  }
}
