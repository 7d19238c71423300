import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { TenantScopedRepository, type Tx } from '@platform/persistence';
import type { AccountId } from '../tenancy/tenant-ids';
import { JournalRecord } from './journal.entity';

export interface JournalEntry {
  kind: 'upsert' | 'remove';
  eventId: string;
  productId: string;
  entityType: string;
  entityId: string;
  version: number;
}

/**
 * The account's change journal, appended inside the write's transaction. The cursor is assigned at
 * COMMIT by a deferred trigger (migration JournalCursorAtCommit): gap-free and monotonic per account,
 * with the counter locked only while PostgreSQL commits. `append` returns the entry's id; read its
 * cursor after the commit with `cursorOf`.
 */
@Injectable()
export class JournalRepository extends TenantScopedRepository<JournalRecord, 'accountId'> {
  constructor(@InjectDataSource() ds: DataSource) {
    super(ds, JournalRecord, 'accountId');
  }

  async append(tx: Tx, accountId: AccountId, e: JournalEntry): Promise<string> {
    const [row] = await this.insertReturning(accountId, [e], tx);
    return row.id;
  }

  async cursorOf(accountId: AccountId, journalId: string): Promise<number> {
    const row = await this.findOne(accountId, { id: journalId });
    return Number(row?.cursor);
  }
}
