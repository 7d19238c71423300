import { Check, Column, Entity, ForeignKey, Index, PrimaryColumn, PrimaryGeneratedColumn } from 'typeorm';
import { Account } from '../tenancy/account.entity';
import type { AccountId } from '../tenancy/tenant-ids';

/**
 * What a journal entry says happened to its event (migration JournalKinds; docs/calendar-api.md, "Change
 * journal"): `created` (version 1) and `updated` by an upsert or a CalDAV PUT, `removed`, and the writes
 * that change only attendees or the room: `invited`, `answered`, `conference_attached`.
 */
export const JOURNAL_KINDS = [
  'created',
  'updated',
  'removed',
  'invited',
  'answered',
  'conference_attached',
] as const;
export type JournalKind = (typeof JOURNAL_KINDS)[number];

/**
 * One entry of an account's change journal. `cursor` is null until COMMIT, when a deferred trigger
 * assigns the account's next number (migration JournalCursorAtCommit).
 */
@Entity({ name: 'journal' })
@Index('journal_account_cursor_uq', ['accountId', 'cursor'], { unique: true })
@Check('journal_kind_check', `kind IN (${JOURNAL_KINDS.map((k) => `'${k}'`).join(', ')})`)
export class JournalRecord {
  @PrimaryGeneratedColumn('uuid') id: string;
  @Column({ name: 'account_id', type: 'text' }) accountId: AccountId;
  @Column({ type: 'bigint', nullable: true }) cursor: string | null;
  @Column({ type: 'text' }) kind: JournalKind;
  @Column({ name: 'event_id', type: 'uuid' }) eventId: string;
  @Column({ name: 'product_id', type: 'text' }) productId: string;
  @Column({ name: 'entity_type', type: 'text' }) entityType: string;
  @Column({ name: 'entity_id', type: 'text' }) entityId: string;
  @Column({ type: 'integer' }) version: number;
  @Column({ type: 'timestamptz', default: () => 'now()' }) at: Date;
  /** Whose views the write touched: the event's people before and after it (migration Caldav). */
  @Column({ name: 'person_ids', type: 'text', array: true, default: () => "'{}'" }) personIds: string[];
  /** The CalDAV calendar of a person's own event; null for product events. */
  @Column({ name: 'dav_calendar', type: 'text', nullable: true }) davCalendar: string | null;
  @Column({ name: 'dav_name', type: 'text', nullable: true }) davName: string | null;
  /**
   * The write may have moved what a busy block shows or who sees it (times, zone, status, visibility,
   * people, resources, series): only such entries reach a caller who sees the event as a busy block.
   */
  @Column({ name: 'busy_changed', type: 'boolean', default: true }) busyChanged: boolean;
}

/** The last journal cursor of each account; written only by the commit trigger. */
@Entity({ name: 'account_cursors' })
export class AccountCursor {
  @PrimaryColumn({ name: 'account_id', type: 'text' })
  @ForeignKey(() => Account, { name: 'account_cursors_account_id_fkey' })
  accountId: AccountId;
  @Column({ name: 'last_cursor', type: 'bigint' }) lastCursor: string;
}
