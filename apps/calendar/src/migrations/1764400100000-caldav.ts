import type { MigrationInterface, QueryRunner } from 'typeorm';
import { dropTenantTablePolicy, tenantTablePolicy } from '@platform/persistence';

/**
 * CalDAV (issue 25, docs/caldav.md).
 * - The reserved product `personal` owns the events people write over CalDAV (entity_type `caldav`,
 *   entity_id a uuid, owner the person), so they share the versioning, journal and outbox of product
 *   events. No key can be issued for it (CalendarGuard refuses one).
 * - Events gain the CalDAV resource they came from: calendar slug, resource name, iCalendar UID and the
 *   client's text, kept verbatim (VALARM, X- properties and all) and served back as it was stored.
 *   Resource names and UIDs are unique within a person's calendar (CALDAV:no-uid-conflict).
 * - The journal records whose calendars an entry touched (the people before and after the write, and
 *   the CalDAV calendar and resource name), so sync-collection (RFC 6578) reads one person's changes.
 * - `series_ends_at`: where a bounded series' last occurrence ends (written by every upsert; null for
 *   rows written before, unbounded series and single events), so a time range skips series that ended
 *   before it instead of expanding them.
 * - `dav_calendars`: the calendars a person made with MKCALENDAR (`default` always exists).
 */
export class Caldav1764400100000 implements MigrationInterface {
  name = 'Caldav1764400100000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(
      `INSERT INTO calendar.products (id, name) VALUES ('personal', 'Personal calendars (CalDAV)') ON CONFLICT (id) DO NOTHING`,
    );
    await q.query(`ALTER TABLE calendar.events
      ADD COLUMN dav_calendar text, ADD COLUMN dav_name text, ADD COLUMN ical_uid text, ADD COLUMN ical text,
      ADD COLUMN series_ends_at timestamptz`);
    await q.query(`ALTER TABLE calendar.events ADD CONSTRAINT events_dav_lengths_ck CHECK (
      char_length(dav_calendar) <= 64 AND char_length(dav_name) <= 255 AND char_length(ical_uid) <= 255
      AND octet_length(ical) <= 1048576)`);
    await q.query(
      `CREATE UNIQUE INDEX events_dav_name_uq ON calendar.events (account_id, owner_person_id, dav_calendar, dav_name) WHERE dav_name IS NOT NULL`,
    );
    await q.query(
      `CREATE UNIQUE INDEX events_dav_uid_uq ON calendar.events (account_id, owner_person_id, dav_calendar, ical_uid) WHERE ical_uid IS NOT NULL`,
    );
    await q.query(`ALTER TABLE calendar.journal
      ADD COLUMN person_ids text[] NOT NULL DEFAULT '{}', ADD COLUMN dav_calendar text, ADD COLUMN dav_name text`);
    await q.query(`CREATE TABLE calendar.dav_calendars (
      account_id text NOT NULL REFERENCES calendar.accounts (id),
      person_id text NOT NULL,
      slug text NOT NULL,
      display_name text NOT NULL,
      color text,
      description text,
      created_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (account_id, person_id, slug),
      CONSTRAINT dav_calendars_lengths_ck CHECK (char_length(person_id) <= 128 AND char_length(slug) <= 64
        AND char_length(display_name) <= 200 AND char_length(color) <= 16 AND char_length(description) <= 1000))`);
    for (const ddl of tenantTablePolicy('calendar', 'dav_calendars', 'account_id')) await q.query(ddl);
  }

  async down(q: QueryRunner): Promise<void> {
    for (const ddl of dropTenantTablePolicy('calendar', 'dav_calendars')) await q.query(ddl);
    await q.query(`DROP TABLE calendar.dav_calendars`);
    await q.query(
      `ALTER TABLE calendar.journal DROP COLUMN person_ids, DROP COLUMN dav_calendar, DROP COLUMN dav_name`,
    );
    await q.query(`DROP INDEX calendar.events_dav_uid_uq`);
    await q.query(`DROP INDEX calendar.events_dav_name_uq`);
    await q.query(`ALTER TABLE calendar.events DROP CONSTRAINT events_dav_lengths_ck,
      DROP COLUMN dav_calendar, DROP COLUMN dav_name, DROP COLUMN ical_uid, DROP COLUMN ical,
      DROP COLUMN series_ends_at`);
    await q.query(`DELETE FROM calendar.products WHERE id = 'personal'`);
  }
}
