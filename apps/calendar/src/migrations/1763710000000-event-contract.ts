import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Full event fields, the change journal with a gap-free cursor per account. */
export class EventContract1763710000000 implements MigrationInterface {
  name = 'EventContract1763710000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE calendar.events
      ADD COLUMN description text,
      ADD COLUMN location text,
      ADD COLUMN all_day boolean NOT NULL DEFAULT false,
      ADD COLUMN start_date date,
      ADD COLUMN end_date date,
      ADD COLUMN time_zone text,
      ADD COLUMN visibility text NOT NULL DEFAULT 'default'
        CHECK (visibility IN ('default', 'public', 'private', 'confidential')),
      ADD COLUMN owner_person_id text,
      ADD COLUMN assignee_ids text[] NOT NULL DEFAULT '{}',
      ADD COLUMN person_ids text[] NOT NULL DEFAULT '{}',
      ADD COLUMN resources jsonb NOT NULL DEFAULT '[]',
      ADD COLUMN resource_ids text[] NOT NULL DEFAULT '{}',
      ADD COLUMN recurrence text[] NOT NULL DEFAULT '{}',
      ADD COLUMN metadata jsonb NOT NULL DEFAULT '{}'`);
    await q.query(`CREATE INDEX events_people_idx ON calendar.events USING gin (person_ids)`);
    await q.query(`CREATE INDEX events_resources_idx ON calendar.events USING gin (resource_ids)`);
    await q.query(`CREATE INDEX events_account_time_idx ON calendar.events (account_id, starts_at, ends_at)`);
    await q.query(`CREATE TABLE calendar.account_cursors (
      account_id text PRIMARY KEY REFERENCES calendar.accounts(id),
      last_cursor bigint NOT NULL)`);
    await q.query(`CREATE TABLE calendar.journal (
      account_id text NOT NULL,
      cursor bigint NOT NULL,
      kind text NOT NULL CHECK (kind IN ('upsert', 'remove')),
      event_id uuid NOT NULL,
      product_id text NOT NULL,
      entity_type text NOT NULL,
      entity_id text NOT NULL,
      version integer NOT NULL,
      at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (account_id, cursor))`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE calendar.journal');
    await q.query('DROP TABLE calendar.account_cursors');
    await q.query(`DROP INDEX calendar.events_account_time_idx`);
    await q.query(`DROP INDEX calendar.events_resources_idx`);
    await q.query(`DROP INDEX calendar.events_people_idx`);
    await q.query(`ALTER TABLE calendar.events
      DROP COLUMN description, DROP COLUMN location, DROP COLUMN all_day, DROP COLUMN start_date,
      DROP COLUMN end_date, DROP COLUMN time_zone, DROP COLUMN visibility, DROP COLUMN owner_person_id,
      DROP COLUMN assignee_ids, DROP COLUMN person_ids, DROP COLUMN resources, DROP COLUMN resource_ids,
      DROP COLUMN recurrence, DROP COLUMN metadata`);
  }
}
