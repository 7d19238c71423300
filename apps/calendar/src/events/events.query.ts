import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { Brackets, DataSource, type SelectQueryBuilder } from 'typeorm';
import type { CalendarPrincipal, ProductPrincipal } from '../auth/calendar.guard';
import { TeamMember } from '../grants/integration-grant.entity';
import { CalendarEvent } from './calendar-event.entity';
import { CalendarError, calendarError } from './event.errors';
import { toEventView, type EventTimeView, type EventView } from './event.mapper';
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

/** Whether the caller gets details of this event or only a busy block. */
function detailsVisible(p: CalendarPrincipal, e: CalendarEvent): boolean {
  if (p.kind === 'product') return p.permissions.includes('Read');
  if (e.personIds.includes(p.subject)) return true;
  return e.visibility === 'default' || e.visibility === 'public';
}

/**
 * `detailsVisible` as SQL, for filters on hidden fields. The subject is bound as a parameter named
 * `me`; products with Read see everything (`true`).
 */
function detailsVisibleSql(p: CalendarPrincipal): string {
  if (p.kind === 'product') return p.permissions.includes('Read') ? 'true' : 'false';
  return `(:me = ANY(e.person_ids) OR e.visibility IN ('default', 'public'))`;
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
  if (parameters.length && p.kind === 'product' && !p.permissions.includes('Read')) {
    throw calendarError(
      CalendarError.FILTER_NEEDS_READ,
      { parameters: parameters.join(', ') },
      { parameters },
    );
  }
}

/** A FreeBusy-only integration sees busy time; a cancelled event is not busy. */
function hidesCancelled(p: CalendarPrincipal): boolean {
  return p.kind === 'product' && !p.permissions.includes('Read');
}

/**
 * The query behind personal and team views. A product with Read sees the account's events in full, with
 * only FreeBusy busy blocks; a person sees their own events and those of their teams' members
 * (private ones of others as busy blocks).
 */
@Injectable()
export class EventsQuery {
  constructor(@InjectDataSource() private readonly ds: DataSource) {}

  async search(p: CalendarPrincipal, q: EventsQueryRequest): Promise<{ items: EventItem[]; total: number }> {
    refuseHiddenFieldParameters(p, hiddenFieldParameters(q));
    const qb = this.ds
      .getRepository(CalendarEvent)
      .createQueryBuilder('e')
      .where('e.account_id = :account', { account: p.accountId });
    await this.scope(qb, p, q);
    this.filters(qb, p, q);
    const [sortColumn, direction] = this.sort(p, q.sort ?? 'start');
    // Ties fall back to what every caller sees (start, end) before the id, so equal-looking busy
    // blocks are the only items whose order depends on anything hidden.
    // (TypeORM keys ORDER BY by expression: adding `e.starts_at` again would replace the first.)
    qb.orderBy(sortColumn, direction, direction === 'ASC' ? 'NULLS LAST' : 'NULLS FIRST');
    if (sortColumn !== 'e.starts_at') qb.addOrderBy('e.starts_at', 'ASC', 'NULLS LAST');
    qb.addOrderBy('e.ends_at', 'ASC', 'NULLS LAST').addOrderBy('e.id', 'ASC');
    qb.skip(q.offset ?? 0).take(q.limit ?? 50);
    const [rows, total] = await qb.getManyAndCount();
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
    const rows = await this.ds.getRepository(CalendarEvent).find({
      where: {
        accountId: p.accountId,
        productId: q.product_id ?? p.productId,
        entityId: q.entity_id,
        ...(q.entity_type ? { entityType: q.entity_type } : {}),
      },
      order: { startsAt: 'ASC', entityType: 'ASC' },
    });
    const visible = rows.filter((e) => !hidesCancelled(p) || e.status !== 'cancelled');
    return {
      items: visible.map((e) => (detailsVisible(p, e) ? toEventView(e) : toBusyBlock(e))),
      total: visible.length,
    };
  }

  /** Which people's events the caller may see at all. */
  private async scope(
    qb: SelectQueryBuilder<CalendarEvent>,
    p: CalendarPrincipal,
    q: EventsQueryRequest,
  ): Promise<void> {
    const teamMembers = async (where: string, params: Record<string, string>) =>
      (
        await this.ds
          .getRepository(TeamMember)
          .createQueryBuilder('t')
          .select('DISTINCT t.person_id', 'person_id')
          .where(`t.account_id = :account AND ${where}`, { account: p.accountId, ...params })
          .getRawMany<{ person_id: string }>()
      ).map((r) => r.person_id);

    let people: string[] | undefined = q.person;
    if (q.team) {
      const members = await teamMembers('t.team_id = :team', { team: q.team });
      people = people ? people.filter((x) => members.includes(x)) : members;
    }
    if (p.kind === 'person') {
      // The person and everyone sharing a team with them, in one query.
      const visible = new Set([
        p.subject,
        ...(await teamMembers(
          't.team_id IN (SELECT me.team_id FROM calendar.team_members me WHERE me.account_id = :account AND me.person_id = :me)',
          { me: p.subject },
        )),
      ]);
      people = (people ?? [...visible]).filter((x) => visible.has(x));
    }
    if (people && people.length === 0) qb.andWhere('false');
    else if (people) qb.andWhere('e.person_ids && :people', { people });
  }

  private filters(qb: SelectQueryBuilder<CalendarEvent>, p: CalendarPrincipal, q: EventsQueryRequest): void {
    if (q.from || q.to) {
      const from = q.from ? new Date(q.from) : undefined;
      const to = q.to ? new Date(q.to) : undefined;
      if (!from || !to || to <= from || to.getTime() - from.getTime() > MAX_RANGE_DAYS * 86400000) {
        throw calendarError(CalendarError.INVALID_RANGE, { maxDays: MAX_RANGE_DAYS });
      }
      // Overlap: an event touches [from, to) when it starts before `to` and ends after `from`; an
      // instant (end = start) counts when it lies inside the range.
      qb.andWhere(
        new Brackets((w) =>
          w
            .where('e.starts_at < :to AND e.ends_at > :from', { from, to })
            .orWhere('e.starts_at = e.ends_at AND e.starts_at >= :from AND e.starts_at < :to', { from, to }),
        ),
      );
    }
    if (q.resource?.length) qb.andWhere('e.resource_ids && :resources', { resources: q.resource });
    if (hidesCancelled(p)) qb.andWhere(`e.status <> 'cancelled'`);
    // Filters on fields a busy block hides match only events whose details the caller can read: a
    // person's text search never finds a teammate's private event, so `total` tells nothing about it.
    // (A product without Read was refused these parameters before the query.)
    const readable = detailsVisibleSql(p);
    if (p.kind === 'person') qb.setParameter('me', p.subject);
    if (q.product?.length)
      qb.andWhere(`${readable} AND e.product_id IN (:...products)`, { products: q.product });
    if (q.status?.length) qb.andWhere(`${readable} AND e.status IN (:...statuses)`, { statuses: q.status });
    if (q.text) {
      const like = `%${q.text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
      qb.andWhere(
        new Brackets((w) =>
          w
            .where(readable)
            .andWhere(
              new Brackets((t) =>
                t
                  .where('e.title ILIKE :like', { like })
                  .orWhere('e.description ILIKE :like', { like })
                  .orWhere('e.location ILIKE :like', { like }),
              ),
            ),
        ),
      );
    }
  }

  /** Sorting by `updated` orders only readable events by it; busy blocks follow, by start. */
  private sort(p: CalendarPrincipal, sort: string): [string, 'ASC' | 'DESC'] {
    const direction = sort.startsWith('-') ? 'DESC' : 'ASC';
    if (!sort.endsWith('updated')) return ['e.starts_at', direction];
    return [`CASE WHEN ${detailsVisibleSql(p)} THEN e.updated_at END`, direction];
  }
}
