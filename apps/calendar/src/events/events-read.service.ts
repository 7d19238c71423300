import { Injectable } from '@nestjs/common';
import type { CalendarPrincipal, ProductPrincipal } from '../auth/calendar.access';
import { CalendarError, calendarError } from './event.errors';
import { toEventView, type EventTimeView, type EventView, type EventViewSource } from './event.mapper';
import type { CompiledRecurrence, Occurrence } from '@platform/recurrence';
import {
  compileMasters,
  occurrenceRefs,
  occurrencesAt,
  occurrenceTimeView,
} from '../recurrence/series-occurrences';
import {
  MAX_MASTERS_PER_QUERY,
  type EventSearch,
  type EventViewRow,
  type Readability,
} from './event-read.repository';
import { EventsRepository, type SearchPage } from './events.repository';
import { comparator, mergePage } from './ranged-page';
import type { EventsQueryRequest } from './dto/events-query.request';
import type { ListByEntityRequest } from './dto/list-by-entity.request';

const MAX_RANGE_DAYS = 366;

/** What a FreeBusy-only integration, or a teammate looking at a private event, gets: a busy block. */
export interface BusyBlock {
  start: EventTimeView | null;
  end: EventTimeView | null;
  all_day: boolean;
  free_busy: 'busy' | 'tentative';
}

/** An occurrence of a recurring event in a ranged query: the master's view at the occurrence's times. */
export type OccurrenceItem = EventView & { series_id: string; recurrence_id: string };

export type EventItem = EventView | OccurrenceItem | BusyBlock;

export function toBusyBlock(e: EventViewSource): BusyBlock {
  const v = toEventView(e);
  return {
    start: v.start,
    end: v.end,
    all_day: v.all_day,
    free_busy: e.status === 'tentative' ? 'tentative' : 'busy',
  };
}

/** A product key reads details only with Read; FreeBusy alone gets busy blocks. */
const readsDetails = (p: ProductPrincipal) => p.scopes.includes('Read');

/**
 * Whose details the caller reads: a product with Read all, with FreeBusy only none; a person their own
 * events' and those not private or confidential. The query applies it (`details` of each row), so a row
 * the caller may not read is mapped to a busy block and nothing else.
 */
export function readability(p: CalendarPrincipal): Readability {
  if (p.kind === 'key') return { kind: readsDetails(p) ? 'all' : 'none' };
  return { kind: 'person', subject: p.subject };
}

/** Parameters of the events query that filter, sort or count by a field a busy block hides. */
function hiddenFieldParameters(q: EventsQueryRequest): string[] {
  const named: string[] = [];
  if (q.text !== undefined) named.push('text');
  if (q.product !== undefined) named.push('product');
  if (q.status !== undefined) named.push('status');
  if (q.sort?.endsWith('updated')) named.push('sort');
  return named;
}

/**
 * A product holding FreeBusy but not Read sees busy blocks only, so it may not filter, sort or count
 * by anything else: `text=merger` would otherwise tell it from `total` what hidden titles say.
 */
function refuseHiddenFieldParameters(p: CalendarPrincipal, parameters: string[]): void {
  if (parameters.length && p.kind === 'key' && !readsDetails(p)) {
    throw calendarError(
      CalendarError.FILTER_NEEDS_READ,
      { parameters: parameters.join(', ') },
      { parameters },
    );
  }
}

/** A FreeBusy-only integration sees busy time; a cancelled event is not busy. */
export function hidesCancelled(p: CalendarPrincipal): boolean {
  return p.kind === 'key' && !readsDetails(p);
}

const toItem = (row: EventViewRow): EventItem => (row.details ? toEventView(row) : toBusyBlock(row));

/** An occurrence as an item: its master's view (or busy block) at the occurrence's times. */
function occurrenceItem(row: EventViewRow, o: Occurrence): EventItem {
  const start = occurrenceTimeView(o.start, row.timeZone);
  const end = occurrenceTimeView(o.end, row.timeZone);
  if (!row.details) return { ...toBusyBlock(row), start, end };
  return { ...toEventView(row), start, end, series_id: row.id, recurrence_id: o.recurrenceId };
}

/**
 * The reads behind personal and team views. A product with Read sees the account's events in full,
 * with only FreeBusy busy blocks; a person sees their own events and those of their teams' members
 * (private ones of others as busy blocks). Each read is one statement: team membership is looked up
 * inside it, rows come back plain (no ORM hydration).
 */
@Injectable()
export class EventsReadService {
  constructor(private readonly events: EventsRepository) {}

  async search(p: CalendarPrincipal, q: EventsQueryRequest): Promise<{ items: EventItem[]; total: number }> {
    refuseHiddenFieldParameters(p, hiddenFieldParameters(q));
    const sort = q.sort ?? 'start';
    const search: EventSearch = {
      // A person sees only their own and their teammates' events, whatever they ask for.
      audience: { people: q.person, team: q.team, viewer: p.kind === 'person' ? p.subject : undefined },
      range: this.range(q),
      resources: q.resource,
      excludeCancelled: hidesCancelled(p),
      readable: readability(p),
      products: q.product,
      statuses: q.status,
      text: q.text,
      sort: {
        by: sort.endsWith('updated') ? 'updated' : 'start',
        direction: sort.startsWith('-') ? 'DESC' : 'ASC',
      },
      offset: q.offset ?? 0,
      limit: q.limit ?? 50,
    };
    const found = await this.events.search(p.accountId, search);
    const plainTotal = found.total ?? (await found.count());
    if (!search.range || !found.masters.length) return { items: found.rows.map(toItem), total: plainTotal };
    return this.withOccurrences(search, search.range, found, plainTotal);
  }

  /**
   * The ranged query with recurring events: each master's occurrences in the range (expanded here,
   * bounded: MAX_MASTERS_PER_QUERY masters, MAX_OCCURRENCES_PER_MASTER each) merged into the plain rows
   * in the query's order. The total is exact: plain rows plus occurrences. A page at offset 0 needs no
   * other statement; a later page reads the up to K plain rows before it that occurrences push into it.
   */
  private async withOccurrences(
    search: EventSearch,
    range: { from: Date; to: Date },
    found: SearchPage,
    plainTotal: number,
  ): Promise<{ items: EventItem[]; total: number }> {
    const masters = found.masters.slice(0, MAX_MASTERS_PER_QUERY);
    const window = { from: range.from.getTime(), to: range.to.getTime() };
    const compiled = compileMasters(masters);
    const cmp = comparator(search.sort);
    const keyOfMaster = (m: EventViewRow) => ({
      updated: m.details ? m.updatedAt.getTime() : null,
      id: m.id,
    });
    const keyed = occurrenceRefs(masters, compiled, window).map((ref) => ({
      ref,
      key: { start: ref.start, end: ref.end, seq: ref.index, ...keyOfMaster(masters[ref.master]) },
    }));
    keyed.sort((a, b) => cmp(a.key, b.key));
    const total = plainTotal + keyed.length;
    const { offset, limit } = search;
    if (offset >= total) return { items: [], total };
    let plain = found.rows;
    const plainFrom = Math.max(0, offset - keyed.length);
    if (offset > 0 && plainFrom < Math.min(offset, plainTotal)) {
      plain = [...(await found.plainRows(plainFrom, Math.min(offset, plainTotal) - plainFrom)), ...plain];
    }
    const page = mergePage({
      plain,
      plainFrom: offset > 0 ? plainFrom : 0,
      occurrences: keyed,
      keyOfPlain: (r) => ({
        start: r.startsAt?.getTime() ?? null,
        end: r.endsAt?.getTime() ?? null,
        seq: 0,
        ...keyOfMaster(r),
      }),
      keyOfOccurrence: (o) => o.key,
      sort: search.sort,
      offset,
      limit,
    });
    // Only the occurrences on the page are built in full, one expansion per master.
    const wanted = new Map<number, number[]>();
    for (const x of page) {
      if ('occurrence' in x && x.occurrence.ref.index >= 0) {
        const { master, index } = x.occurrence.ref;
        wanted.set(master, [...(wanted.get(master) ?? []), index]);
      }
    }
    const built = new Map<number, Map<number, Occurrence>>();
    for (const [master, indices] of wanted) {
      built.set(
        master,
        occurrencesAt(masters[master], compiled[master] as CompiledRecurrence, window, indices),
      );
    }
    return {
      items: page.map((x) => {
        if ('plain' in x) return toItem(x.plain);
        const { master, index } = x.occurrence.ref;
        const row = masters[master];
        const o = built.get(master)?.get(index);
        return o ? occurrenceItem(row, o) : toItem(row);
      }),
      total,
    };
  }

  /** Events of one product entity; the same redaction rules as `search`. */
  async byEntity(
    p: ProductPrincipal,
    q: ListByEntityRequest,
  ): Promise<{ items: EventItem[]; total: number }> {
    // Another product's entity ids are its hidden fields: a busy-block caller may not probe them.
    if (q.product_id !== undefined && q.product_id !== p.productId) {
      refuseHiddenFieldParameters(p, ['product_id']);
    }
    const rows = await this.events.ofEntity(p.accountId, {
      productId: q.product_id ?? p.productId,
      entityId: q.entity_id,
      entityType: q.entity_type,
      excludeCancelled: hidesCancelled(p),
      readable: readability(p),
    });
    return { items: rows.map(toItem), total: rows.length };
  }

  private range(q: EventsQueryRequest): { from: Date; to: Date } | undefined {
    if (!q.from && !q.to) return undefined;
    const from = q.from ? new Date(q.from) : undefined;
    const to = q.to ? new Date(q.to) : undefined;
    if (!from || !to || to <= from || to.getTime() - from.getTime() > MAX_RANGE_DAYS * 86400000) {
      throw calendarError(CalendarError.INVALID_RANGE, { maxDays: MAX_RANGE_DAYS });
    }
    return { from, to };
  }
}
