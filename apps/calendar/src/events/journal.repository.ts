import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { TenantScopedRepository } from '@platform/persistence';
import type { JournalPart, WriteStatement } from './event-write.repository';
import { JournalRecord } from './journal.entity';

/**
 * The account's change journal, appended by the write statement itself (event-write.repository.ts).
 *
 * The cursor is assigned at COMMIT by a deferred trigger (migration JournalCursorAtCommit): the
 * account's counter row + 1, gap-free (a rolled-back write never reaches the trigger) and monotonic per
 * account. A write is now one statement that is its own transaction, so the statement can also tell the
 * client that cursor without another round trip: it locks the counter row (a no-op upsert, which sees
 * the latest committed value even when that committed after the statement began) and returns its value
 * + 1. Holding the lock until COMMIT means no other writer of the account can move the counter before
 * this transaction's trigger does, so the trigger assigns exactly that number. The lock is taken after
 * the event row's (the CTE reads the journal insert, which reads the written row), in the same order by
 * every writer, and is held only for the rest of one statement and its commit, all inside PostgreSQL:
 * never across a client round trip. The statement must therefore never run inside a longer transaction.
 */
@Injectable()
export class JournalRepository extends TenantScopedRepository<JournalRecord, 'accountId'> {
  constructor(@InjectDataSource() ds: DataSource) {
    super(ds, JournalRecord, 'accountId');
  }

  /** The entry for each event row of the statement's `source` (its tenant is the row's account). */
  entry(kind: JournalRecord['kind']): JournalPart {
    return {
      addTo(st: WriteStatement, source: string, people = 'person_ids'): string {
        // Whose calendars the entry touches (sync-collection, RFC 6578): `people` is the event's people,
        // or an expression of the source adding those before the write (an event someone left).
        st.with(
          'journaled',
          `INSERT INTO journal (account_id, kind, event_id, product_id, entity_type, entity_id, version,
    person_ids, dav_calendar, dav_name)
  SELECT account_id, ${st.bind(kind)}, id, product_id, entity_type, entity_id, version, ${people},
    dav_calendar, dav_name
  FROM ${source}
  RETURNING account_id`,
        );
        st.with(
          'journal_cursor',
          `INSERT INTO account_cursors AS ac (account_id, last_cursor) SELECT account_id, 0 FROM journaled
  ON CONFLICT (account_id) DO UPDATE SET last_cursor = ac.last_cursor
  RETURNING ac.last_cursor + 1 AS cursor`,
        );
        return 'journal_cursor';
      },
    };
  }
}
