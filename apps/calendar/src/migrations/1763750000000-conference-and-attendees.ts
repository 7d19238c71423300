import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Conference rooms and invitations (issue 10, decision 0017). `events.conference` is the room link;
 * `event_attendees` holds each invited person or guest with their iCalendar ROLE and PARTSTAT, and
 * `events.attendees` is the same list as the responses show it, written by the same statement, so the
 * views read it without a join.
 */
export class ConferenceAndAttendees1763750000000 implements MigrationInterface {
  name = 'ConferenceAndAttendees1763750000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE calendar.events ADD COLUMN conference jsonb`);
    await q.query(`ALTER TABLE calendar.events ADD COLUMN attendees jsonb NOT NULL DEFAULT '[]'`);
    await q.query(`CREATE TABLE calendar.event_attendees (
      event_id uuid NOT NULL,
      account_id text NOT NULL,
      attendee_key text NOT NULL,
      kind text NOT NULL,
      role text NOT NULL DEFAULT 'REQ-PARTICIPANT',
      partstat text NOT NULL DEFAULT 'NEEDS-ACTION',
      comment text,
      responded_at timestamptz,
      invited_at timestamptz NOT NULL DEFAULT now(),
      invited_by text NOT NULL,
      CONSTRAINT event_attendees_pkey PRIMARY KEY (event_id, kind, attendee_key),
      CONSTRAINT event_attendees_event_id_fkey FOREIGN KEY (event_id)
        REFERENCES calendar.events (id) ON DELETE CASCADE,
      CONSTRAINT event_attendees_account_id_fkey FOREIGN KEY (account_id)
        REFERENCES calendar.accounts (id),
      CONSTRAINT event_attendees_kind_ck CHECK (kind IN ('person', 'email')),
      CONSTRAINT event_attendees_role_ck CHECK (role IN ('REQ-PARTICIPANT', 'OPT-PARTICIPANT')),
      CONSTRAINT event_attendees_partstat_ck
        CHECK (partstat IN ('NEEDS-ACTION', 'ACCEPTED', 'DECLINED', 'TENTATIVE')),
      CONSTRAINT event_attendees_lengths_ck
        CHECK (char_length(attendee_key) <= 254 AND char_length(comment) <= 500
          AND char_length(invited_by) <= 128)
    )`);
    await q.query(
      `CREATE INDEX event_attendees_account_key_idx ON calendar.event_attendees (account_id, attendee_key)`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE calendar.event_attendees`);
    await q.query(`ALTER TABLE calendar.events DROP COLUMN attendees`);
    await q.query(`ALTER TABLE calendar.events DROP COLUMN conference`);
  }
}
