import type { DataSource, EntityManager } from 'typeorm';
import type { AccountId } from '../tenancy/tenant-ids';

export interface JournalEntry {
  kind: 'upsert' | 'remove';
  eventId: string;
  productId: string;
  entityType: string;
  entityId: string;
  version: number;
}

/**
 * Appends to the account's change journal inside the write's transaction. The cursor is assigned at
 * COMMIT by a deferred trigger (migration JournalCursorAtCommit): gap-free and monotonic per account,
 * with the counter locked only while PostgreSQL commits. Returns the entry's id; read its cursor after
 * the commit with `cursorOf`.
 */
export async function appendJournal(
  tx: EntityManager,
  accountId: AccountId,
  e: JournalEntry,
): Promise<string> {
  const rows = (await tx.query(
    `INSERT INTO calendar.journal (account_id, kind, event_id, product_id, entity_type, entity_id, version)
     VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING id`,
    [accountId, e.kind, e.eventId, e.productId, e.entityType, e.entityId, e.version],
  )) as { id: string }[];
  return rows[0].id;
}

export async function cursorOf(ds: DataSource, journalId: string): Promise<number> {
  const rows = (await ds.query(`SELECT cursor FROM calendar.journal WHERE id = $1`, [journalId])) as {
    cursor: string;
  }[];
  return Number(rows[0].cursor);
}
