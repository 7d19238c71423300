import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The journal cursor is assigned at COMMIT by a deferred constraint trigger. The per-account counter row
 * is then locked only while PostgreSQL commits, not across the client's round trips, so writers of one
 * account no longer queue behind each other's network latency. Cursors stay gap-free: a rolled-back
 * transaction never reaches its deferred trigger.
 */
export class JournalCursorAtCommit1763713000000 implements MigrationInterface {
  name = 'JournalCursorAtCommit1763713000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE calendar.journal DROP CONSTRAINT journal_pkey`);
    await q.query(
      `ALTER TABLE calendar.journal ADD COLUMN id uuid NOT NULL DEFAULT gen_random_uuid() PRIMARY KEY`,
    );
    await q.query(`ALTER TABLE calendar.journal ALTER COLUMN cursor DROP NOT NULL`);
    await q.query(`CREATE UNIQUE INDEX journal_account_cursor_uq ON calendar.journal (account_id, cursor)`);
    await q.query(`CREATE FUNCTION calendar.assign_journal_cursor() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        INSERT INTO calendar.account_cursors (account_id, last_cursor) VALUES (NEW.account_id, 1)
        ON CONFLICT (account_id) DO UPDATE SET last_cursor = calendar.account_cursors.last_cursor + 1;
        UPDATE calendar.journal SET cursor = (
          SELECT last_cursor FROM calendar.account_cursors WHERE account_id = NEW.account_id)
        WHERE id = NEW.id;
        RETURN NULL;
      END $$`);
    await q.query(`CREATE CONSTRAINT TRIGGER journal_cursor_at_commit
      AFTER INSERT ON calendar.journal DEFERRABLE INITIALLY DEFERRED
      FOR EACH ROW EXECUTE FUNCTION calendar.assign_journal_cursor()`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TRIGGER journal_cursor_at_commit ON calendar.journal`);
    await q.query(`DROP FUNCTION calendar.assign_journal_cursor()`);
    await q.query(`DROP INDEX calendar.journal_account_cursor_uq`);
    await q.query(`ALTER TABLE calendar.journal DROP CONSTRAINT journal_pkey`);
    await q.query(`ALTER TABLE calendar.journal DROP COLUMN id`);
    await q.query(`ALTER TABLE calendar.journal ALTER COLUMN cursor SET NOT NULL`);
    await q.query(`ALTER TABLE calendar.journal ADD PRIMARY KEY (account_id, cursor)`);
  }
}
