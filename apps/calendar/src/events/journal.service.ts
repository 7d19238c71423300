import { Injectable } from '@nestjs/common';
import type { CalendarPrincipal } from '../auth/calendar.access';
import { CalendarError, calendarError } from './event.errors';
import { toEventView, type EventView } from './event.mapper';
import { hidesCancelled, readability, toBusyBlock, type BusyBlock } from './events-read.service';
import { JOURNAL_LIMITS, type JournalQueryRequest } from './dto/journal-query.request';
import type { JournalKind } from './journal.entity';
import { JournalRepository, type JournalEntryRow } from './journal.repository';

export interface JournalTombstone {
  event_id: string;
  version: number | null;
  removed_at: string;
}

export interface JournalEntryView {
  cursor: number;
  kind: JournalKind;
  at: string;
  event_id: string;
  product_id: string | null;
  entity_type: string | null;
  entity_id: string | null;
  version: number | null;
  event: EventView | BusyBlock | null;
  tombstone: JournalTombstone | null;
}

export interface JournalPage {
  items: JournalEntryView[];
  next_cursor: number;
  has_more: boolean;
}

/** Where a client whose cursor cannot go on takes its snapshot (docs/calendar-api.md, "Change journal"). */
export const JOURNAL_SNAPSHOT = 'GET /Calendar/events';

/**
 * The change journal as a reader may see it (decision 0042): the same readers and the same redaction
 * as the events query (events-read.service.ts), one entry per write, in cursor order. Entries the reader
 * may not see are left out, yet the page's `next_cursor` covers them, so a short page is never mistaken
 * for missing data. A cursor that cannot continue without a gap is refused with where to resync.
 */
@Injectable()
export class JournalService {
  constructor(private readonly journal: JournalRepository) {}

  async page(p: CalendarPrincipal, q: JournalQueryRequest): Promise<JournalPage> {
    const after = q.after ?? 0;
    const limit = q.limit ?? JOURNAL_LIMITS.defaultLimit;
    const found = await this.journal.scan(
      p.accountId,
      {
        readable: readability(p),
        viewer: p.kind === 'person' ? p.subject : undefined,
        excludeCancelled: hidesCancelled(p),
      },
      after,
      limit,
    );
    const { last } = found;
    // Nothing pruned: the first entry is cursor 1. With none retained, only the last cursor goes on.
    const first = found.first ?? last + 1;
    const hint = { after, resync: last };
    const resync = { resync_cursor: last, snapshot: JOURNAL_SNAPSHOT };
    if (after > last) throw calendarError(CalendarError.JOURNAL_CURSOR_UNKNOWN, hint, resync);
    if (after < first - 1) throw calendarError(CalendarError.JOURNAL_CURSOR_EXPIRED, hint, resync);
    const items = found.rows.map(toEntry);
    // A full page ends at its last entry; a short one covers everything the scan read.
    const next = items.length === limit ? items[items.length - 1].cursor : (found.scannedTo ?? after);
    return { items, next_cursor: next, has_more: next < last };
  }
}

/** The entry as the reader may see it: identity and version only with the details. */
function toEntry(row: JournalEntryRow): JournalEntryView {
  const at = new Date(row.at).toISOString();
  const version = row.details ? row.entryVersion : null;
  return {
    cursor: Number(row.cursor),
    kind: row.kind,
    at,
    event_id: row.eventId,
    product_id: row.details ? row.entryProductId : null,
    entity_type: row.details ? row.entryEntityType : null,
    entity_id: row.details ? row.entryEntityId : null,
    version,
    event: row.present ? (row.details ? toEventView(row) : toBusyBlock(row)) : null,
    tombstone: row.kind === 'removed' ? { event_id: row.eventId, version, removed_at: at } : null,
  };
}
