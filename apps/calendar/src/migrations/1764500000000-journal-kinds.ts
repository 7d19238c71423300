import type { MigrationInterface, QueryRunner } from 'typeorm';

const KINDS = ['created', 'updated', 'removed', 'invited', 'answered', 'conference_attached'];

/**
 * The journal says what changed (issue 26), so a reader of `GET /Calendar/journal` need not diff two
 * versions: `upsert` becomes `created` (version 1) or `updated`, `remove` becomes `removed`, and the
 * writes that touch only attendees or the room get `invited`, `answered` and `conference_attached`.
 * Rows written before are mapped by what they can still tell: an upsert at version 1 created its
 * event; any other upsert (an invitation, answer or room among them) reads as `updated`.
 *
 * `busy_changed`: whether the write may have moved what a busy block shows or who sees it (times,
 * zone, status, visibility, people, resources, series). A caller who sees an event only as a busy block
 * is shown just those entries, so the journal does not tell it when hidden fields changed (decision
 * 0042). Rows written before are all `true`: shown, as they would have been.
 */
export class JournalKinds1764500000000 implements MigrationInterface {
  name = 'JournalKinds1764500000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE calendar.journal DROP CONSTRAINT journal_kind_check`);
    await q.query(`UPDATE calendar.journal SET kind = CASE
      WHEN kind = 'remove' THEN 'removed' WHEN version = 1 THEN 'created' ELSE 'updated' END`);
    await q.query(
      `ALTER TABLE calendar.journal ADD CONSTRAINT journal_kind_check CHECK (kind IN (${KINDS.map((k) => `'${k}'`).join(', ')}))`,
    );
    await q.query(`ALTER TABLE calendar.journal ADD COLUMN busy_changed boolean NOT NULL DEFAULT true`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE calendar.journal DROP COLUMN busy_changed`);
    await q.query(`ALTER TABLE calendar.journal DROP CONSTRAINT journal_kind_check`);
    await q.query(
      `UPDATE calendar.journal SET kind = CASE WHEN kind = 'removed' THEN 'remove' ELSE 'upsert' END`,
    );
    await q.query(
      `ALTER TABLE calendar.journal ADD CONSTRAINT journal_kind_check CHECK (kind IN ('upsert', 'remove'))`,
    );
  }
}
