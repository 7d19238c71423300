import { Injectable } from '@nestjs/common';
import type { CalendarPrincipal, ProductPrincipal } from '../auth/calendar.access';
import { TeamsRepository } from '../grants/teams.repository';
import type { CalendarEvent } from './calendar-event.entity';
import { CalendarError, calendarError } from './event.errors';
import { toEventView, type EventTimeView, type EventView } from './event.mapper';
import { EventsRepository, type Readability } from './events.repository';
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

export function toBusyBlock(e: CalendarEvent): BusyBlock {
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

/** Whether the caller gets details of this event or only a busy block. */
function detailsVisible(p: CalendarPrincipal, e: CalendarEvent): boolean {
  if (p.kind === 'key') return readsDetails(p);
  if (e.personIds.includes(p.subject)) return true;
  return e.visibility === 'default' || e.visibility === 'public';
}

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

/**
 * The reads behind personal and team views. A product with Read sees the account's events in full,
 * with only FreeBusy busy blocks; a person sees their own events and those of their teams' members
 * (private ones of others as busy blocks).
 */
@Injectable()
export class EventsReadService {
  constructor(
    private readonly events: EventsRepository,
    private readonly teams: TeamsRepository,
  ) {}

  async search(p: CalendarPrincipal, q: EventsQueryRequest): Promise<{ items: EventItem[]; total: number }> {
    refuseHiddenFieldParameters(p, hiddenFieldParameters(q));
    const sort = q.sort ?? 'start';
    const [rows, total] = await this.events.search(p.accountId, {
      people: await this.people(p, q),
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
    return { items: rows.map((e) => (detailsVisible(p, e) ? toEventView(e) : toBusyBlock(e))), total };
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
    });
    const visible = rows.filter((e) => !hidesCancelled(p) || e.status !== 'cancelled');
    return {
      items: visible.map((e) => (detailsVisible(p, e) ? toEventView(e) : toBusyBlock(e))),
      total: visible.length,
    };
  }

  /** Which people's events the caller may see at all; undefined for everyone's. */
  private async people(p: CalendarPrincipal, q: EventsQueryRequest): Promise<string[] | undefined> {
    let people: string[] | undefined = q.person;
    if (q.team) {
      const members = await this.teams.membersOf(p.accountId, q.team);
      people = people ? people.filter((x) => members.includes(x)) : members;
    }
    if (p.kind === 'person') {
      const visible = new Set([p.subject, ...(await this.teams.teammatesOf(p.accountId, p.subject))]);
      people = (people ?? [...visible]).filter((x) => visible.has(x));
    }
    return people;
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
