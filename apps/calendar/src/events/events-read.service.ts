import { Injectable } from '@nestjs/common';
import type { CalendarPrincipal, ProductPrincipal } from '../auth/calendar.access';
import { CalendarError, calendarError } from './event.errors';
import { toEventView, type EventTimeView, type EventView, type EventViewSource } from './event.mapper';
import type { EventViewRow, Readability } from './event-read.repository';
import { EventsRepository } from './events.repository';
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

export type EventItem = EventView | BusyBlock;

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
function readability(p: CalendarPrincipal): Readability {
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
function hidesCancelled(p: CalendarPrincipal): boolean {
  return p.kind === 'key' && !readsDetails(p);
}

const toItem = (row: EventViewRow): EventItem => (row.details ? toEventView(row) : toBusyBlock(row));

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
    const { rows, total } = await this.events.search(p.accountId, {
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
    });
    return { items: rows.map(toItem), total };
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
