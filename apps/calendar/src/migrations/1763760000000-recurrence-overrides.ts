import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Recurrence (issue 10, decision 0016): moved or cancelled occurrences are stored with their series
 * (`recurrence_overrides`, as the API shows them). Recurring masters are read by every range query
 * whatever their own end (their series may reach into the range), so a partial index holds just them
 * by start: the week query and free/busy find an account's masters without walking its other events.
 */
export class RecurrenceOverrides1763760000000 implements MigrationInterface {
  name = 'RecurrenceOverrides1763760000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE calendar.events ADD COLUMN recurrence_overrides jsonb NOT NULL DEFAULT '[]'`);
    await q.query(
      `CREATE INDEX events_recurring_idx ON calendar.events (account_id, starts_at) WHERE recurrence <> '{}'`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX calendar.events_recurring_idx`);
    await q.query(`ALTER TABLE calendar.events DROP COLUMN recurrence_overrides`);
  }
}
