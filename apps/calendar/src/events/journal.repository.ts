import type { EntityManager } from 'typeorm';
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
 * Appends to the account's change journal inside the write's transaction. The cursor comes from a
 * per-account counter row updated in the same transaction, so cursors are gap-free and monotonic: a
 * rolled-back write takes its number back with it. Writers of one account serialise on that row only
 * for the rest of their (short) transaction.
 */
export async function appendJournal(
  tx: EntityManager,
  accountId: AccountId,
  e: JournalEntry,
): Promise<number> {
  const rows = (await tx.query(
    `WITH next AS (
       INSERT INTO calendar.account_cursors (account_id, last_cursor) VALUES ($1, 1)
       ON CONFLICT (account_id) DO UPDATE SET last_cursor = calendar.account_cursors.last_cursor + 1
       RETURNING last_cursor)
     INSERT INTO calendar.journal (account_id, cursor, kind, event_id, product_id, entity_type, entity_id, version)
     SELECT $1, last_cursor, $2, $3, $4, $5, $6, $7 FROM next
     RETURNING cursor`,
    [accountId, e.kind, e.eventId, e.productId, e.entityType, e.entityId, e.version],
  )) as { cursor: string }[];
  return Number(rows[0].cursor);
}
