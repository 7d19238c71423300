import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { TenantScopedRepository } from '@platform/persistence';
import { TeamsRepository } from '../grants/teams.repository';
import type { AccountId } from '../tenancy/tenant-ids';
import { Params, VIEW_COLUMNS, type EventViewRow, type Readability } from './event-read.repository';
import type { JournalPart, WriteStatement } from './event-write.repository';
import { JournalRecord, type JournalKind } from './journal.entity';

/** Kinds of writes that change only attendees or the room: nothing a busy block shows. */
const HIDDEN_ONLY: ReadonlySet<JournalKind> = new Set(['invited', 'answered', 'conference_attached']);

/**
 * A page of the journal reads at most this many entries, whatever the caller may see of them: a person
 * who sees few of a busy account's entries gets short (even empty) pages whose `next_cursor` still
 * moves, rather than a statement that walks the whole journal looking for a full page.
 */
export const JOURNAL_SCAN = 1000;

/** Who reads the journal, as the events query decides it (events-read.service.ts). */
export interface JournalReader {
  readable: Readability;
  /** A person: entries of their own and their teammates' events only. */
  viewer?: string;
  /** A FreeBusy-only product: a cancelled event is no busy time. */
  excludeCancelled: boolean;
}

/**
 * An entry the reader may see, with the event as it is now when it is still in the reader's view
 * (`present`; its columns are then `EventViewSource`'s), and whether the reader may read its details
 * (`details`: else a busy block, and the entry's identity and version stay hidden).
 */
export type JournalEntryRow = EventViewRow & {
  cursor: string;
  kind: JournalKind;
  at: Date;
  eventId: string;
  entryProductId: string;
  entryEntityType: string;
  entryEntityId: string;
  entryVersion: number;
  present: boolean;
};

export interface JournalScanResult {
  /** The account's last cursor and its earliest retained entry (null: none retained). */
  last: number;
  first: number | null;
  /** The last cursor the page read (null: nothing after `after`), seen by the reader or not. */
  scannedTo: number | null;
  rows: JournalEntryRow[];
}

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
 *
 * The same lock makes the journal safe to read without gaps: a transaction becomes visible before it
 * releases its locks, so the next cursor's writer, waiting on the counter row, commits only after it.
 * A snapshot that sees cursor n therefore sees every cursor before n.
 */
@Injectable()
export class JournalRepository extends TenantScopedRepository<JournalRecord, 'accountId'> {
  constructor(@InjectDataSource() ds: DataSource) {
    super(ds, JournalRecord, 'accountId');
  }

  /** The entry for each event row of the statement's `source` (its tenant is the row's account). */
  entry(kind: JournalKind): JournalPart {
    return {
      addTo(st: WriteStatement, source: string, people = 'person_ids', busyChanged = 'true'): string {
        // Whose calendars the entry touches (sync-collection, RFC 6578): `people` is the event's people,
        // or an expression of the source adding those before the write (an event someone left).
        st.with(
          'journaled',
          `INSERT INTO journal (account_id, kind, event_id, product_id, entity_type, entity_id, version,
    person_ids, dav_calendar, dav_name, busy_changed)
  SELECT account_id, ${st.bind(kind)}, id, product_id, entity_type, entity_id, version, ${people},
    dav_calendar, dav_name, ${HIDDEN_ONLY.has(kind) ? 'false' : busyChanged}
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

  /**
   * Up to `limit` entries after `after` that the reader may see, among the next JOURNAL_SCAN entries,
   * with the account's bounds, in one statement (one snapshot: the bounds and the entries agree).
   *
   * A person sees an entry when the write touched someone whose events they see (themselves or a
   * teammate: the entry's people, before and after the write); the event beside it only while it is
   * still in their view. Details as the events query gives them: a product with Read all, FreeBusy
   * none, a person their own events' and those not private or confidential; an event gone from the
   * view is judged by the entry (a person reads their own). A reader who sees the event as a busy
   * block is shown only the entries that may have moved it (`busy_changed`).
   */
  async scan(
    accountId: AccountId,
    r: JournalReader,
    after: number,
    limit: number,
  ): Promise<JournalScanResult> {
    const p = new Params(accountId);
    const a = p.bind(after);
    const scanLimit = p.bind(Math.max(limit, JOURNAL_SCAN));
    let viewer = '';
    let entryInView = 'true';
    let eventInView = r.excludeCancelled ? `e.status <> 'cancelled'` : 'true';
    let ownEntry = r.readable.kind === 'all' ? 'true' : 'false';
    if (r.viewer !== undefined) {
      const me = p.bind(r.viewer);
      viewer = `,\nviewer AS (SELECT ARRAY(${TeamsRepository.visibleToSql('$1', me)}) AS people)`;
      entryInView = 's.person_ids && v.people';
      eventInView = 'e.person_ids && v.people';
      ownEntry = `${me}::text = ANY(s.person_ids)`;
    }
    const details = `CASE WHEN e.id IS NOT NULL THEN ${p.readable(r.readable)} ELSE ${ownEntry} END`;
    const sql = `WITH bounds AS (
  SELECT COALESCE((SELECT last_cursor FROM account_cursors WHERE account_id = $1), 0) AS last,
    (SELECT min(cursor) FROM journal WHERE account_id = $1) AS first
),
scanned AS (
  SELECT * FROM journal WHERE account_id = $1 AND cursor > ${a} ORDER BY cursor LIMIT ${scanLimit}
)${viewer},
shown AS (
  SELECT s.cursor, s.kind, s.at, s.event_id AS "eventId", s.product_id AS "entryProductId",
    s.entity_type AS "entryEntityType", s.entity_id AS "entryEntityId", s.version AS "entryVersion",
    e.id IS NOT NULL AS present, d.details, ${VIEW_COLUMNS}
  FROM scanned s${viewer ? ' CROSS JOIN viewer v' : ''}
  LEFT JOIN events e ON e.account_id = $1 AND e.id = s.event_id AND ${eventInView}
  CROSS JOIN LATERAL (SELECT ${details} AS details) d
  WHERE ${entryInView} AND (d.details OR s.busy_changed)
  ORDER BY s.cursor
  LIMIT ${p.bind(limit)}
)
SELECT b.last, b.first, (SELECT max(cursor) FROM scanned) AS "scannedTo", sh.*
FROM bounds b LEFT JOIN shown sh ON true
ORDER BY sh.cursor`;
    const rows = await this.sql<
      JournalEntryRow & { last: string; first: string | null; scannedTo: string | null }
    >(accountId, sql, p.values.slice(1));
    const [head] = rows;
    return {
      last: Number(head.last),
      first: head.first === null ? null : Number(head.first),
      scannedTo: head.scannedTo === null ? null : Number(head.scannedTo),
      rows: rows.filter((row) => row.cursor !== null),
    };
  }
}
