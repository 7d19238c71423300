import { TeamsRepository } from '../grants/teams.repository';
import type { AccountId } from '../tenancy/tenant-ids';
import type { StoredOverride } from './calendar-event.entity';
import type { EventViewSource } from './event.mapper';

/**
 * The calendar's hot reads as plain SQL: one statement per view, selecting only what the response
 * shows, under the entity's property names, so rows go to `toEventView` without ORM hydration.
 * Unqualified table names resolve to the calendar schema (the connection's search path).
 */

/** Whose details the caller may read: filters on hidden fields match only those events. */
export type Readability = { kind: 'all' } | { kind: 'none' } | { kind: 'person'; subject: string };

/**
 * Whose events a view shows: each part given narrows it (they intersect), none given means everyone's.
 * `viewer` is a person: their own events and their teammates'.
 */
export interface Audience {
  people?: string[];
  team?: string;
  viewer?: string;
}

export interface EventSearch {
  audience: Audience;
  /** Overlapping [from, to). */
  range?: { from: Date; to: Date };
  resources?: string[];
  excludeCancelled: boolean;
  readable: Readability;
  products?: string[];
  statuses?: string[];
  text?: string;
  sort: { by: 'start' | 'updated'; direction: 'ASC' | 'DESC' };
  offset: number;
  limit: number;
}

export interface EntityEvents {
  productId: string;
  entityId: string;
  entityType?: string;
  excludeCancelled: boolean;
  readable: Readability;
}

/** An event as a view needs it, and whether the caller may read its details (else: a busy block). */
export type EventViewRow = EventViewSource & { details: boolean };

export interface Statement {
  sql: string;
  params: unknown[];
}

/** The columns of `EventViewSource`; dates as `YYYY-MM-DD`, as TypeORM hydrates them. */
export const VIEW_COLUMNS = `e.id, e.product_id AS "productId", e.entity_type AS "entityType",
  e.entity_id AS "entityId", e.version, e.title, e.description, e.location, e.all_day AS "allDay",
  e.starts_at AS "startsAt", e.ends_at AS "endsAt", to_char(e.start_date, 'YYYY-MM-DD') AS "startDate",
  to_char(e.end_date, 'YYYY-MM-DD') AS "endDate", e.time_zone AS "timeZone", e.status, e.visibility, e.transparency,
  e.owner_person_id AS "ownerPersonId", e.assignee_ids AS "assigneeIds", e.resources, e.recurrence,
  e.recurrence_overrides AS "recurrenceOverrides", e.metadata, e.conference, e.attendees, e.created_at AS "createdAt", e.updated_at AS "updatedAt"`;

/**
 * Positional parameters, `$1` always the account: every statement here starts from its tenant. (The
 * journal's read, journal.repository.ts, builds on it too: the same readability rule.)
 */
export class Params {
  readonly values: unknown[];
  private me?: string;

  constructor(accountId: AccountId) {
    this.values = [accountId];
  }

  readonly bind = (value: unknown): string => `$${this.values.push(value)}`;

  /** `Readability` as SQL; a person's subject bound once, where first needed. */
  readable(r: Readability): string {
    if (r.kind === 'all') return 'true';
    if (r.kind === 'none') return 'false';
    this.me ??= this.bind(r.subject);
    return `(${this.me}::text = ANY(e.person_ids) OR e.visibility IN ('default', 'public'))`;
  }
}

/**
 * The people whose events match, as one array the GIN index on `person_ids` can take: the intersection
 * of the listed people, the team's members and what the viewer may see (team lookups are subqueries,
 * no round trip of their own). An empty intersection matches nothing.
 */
function audienceSql(a: Audience, p: Params): string | undefined {
  const sets: string[] = [];
  let listed: string | undefined;
  if (a.people !== undefined) {
    listed = `${p.bind(a.people)}::text[]`;
    sets.push(`SELECT unnest(${listed})`);
  }
  if (a.team) sets.push(TeamsRepository.membersSql('$1', p.bind(a.team)));
  if (a.viewer !== undefined) sets.push(TeamsRepository.visibleToSql('$1', p.bind(a.viewer)));
  if (!sets.length) return undefined;
  // A list alone stays a literal array, so the planner can estimate it.
  if (listed && sets.length === 1) return `e.person_ids && ${listed}`;
  return `e.person_ids && ARRAY(${sets.map((s) => `(${s})`).join(' INTERSECT ')})`;
}

/** The search's conditions: those every row must meet, and the range's bounds when there is one. */
function searchWhere(s: EventSearch, p: Params): { base: string[]; range?: { from: string; to: string } } {
  const where = ['e.account_id = $1'];
  const audience = audienceSql(s.audience, p);
  if (audience) where.push(audience);
  if (s.resources?.length) where.push(`e.resource_ids && ${p.bind(s.resources)}::text[]`);
  if (s.excludeCancelled) where.push(`e.status <> 'cancelled'`);
  // Filters on fields a busy block hides match only events whose details the caller can read: a
  // person's text search never finds a teammate's private event, so `total` tells nothing about it.
  if (s.products?.length) {
    where.push(`${p.readable(s.readable)} AND e.product_id = ANY(${p.bind(s.products)}::text[])`);
  }
  if (s.statuses?.length) {
    where.push(`${p.readable(s.readable)} AND e.status = ANY(${p.bind(s.statuses)}::text[])`);
  }
  if (s.text) {
    const like = p.bind(`%${s.text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`);
    where.push(
      `${p.readable(s.readable)} AND (e.title ILIKE ${like} OR e.description ILIKE ${like} OR e.location ILIKE ${like})`,
    );
  }
  if (!s.range) return { base: where };
  return {
    base: where,
    range: { from: `${p.bind(s.range.from)}::timestamptz`, to: `${p.bind(s.range.to)}::timestamptz` },
  };
}

/**
 * Overlap with [from, to): starts before `to` and ends after `from`; an instant (end = start) counts
 * when it lies inside, so also at `from`. Written as two plain bounds plus that one exception, both
 * bounds are index conditions of (account, start, end) and of (account, end, start): the planner walks
 * whichever is narrower (migration EventsEndTimeIndex).
 */
const overlaps = (r: { from: string; to: string }) => [
  `e.starts_at < ${r.to}`,
  `e.ends_at >= ${r.from}`,
  `(e.ends_at > ${r.from} OR e.starts_at = e.ends_at)`,
];

/** At most this many recurring masters are read per range query (the latest-starting ones). */
export const MAX_MASTERS_PER_QUERY = 200;

/** The ranged events query: plain rows and recurring masters, and the statements paging needs. */
export interface SearchStatements {
  /** One page of plain rows with the total of all matches; with a range, also the masters (`master`). */
  page: Statement;
  /** The total alone, for a page past the end (of the plain rows, when there is a range). */
  count: Statement;
  /** Plain rows `[offset, offset + limit)` with their total, for pages that recurring occurrences shift. */
  plainRows(offset: number, limit: number): Statement;
}

/**
 * The events query: one page with the total of all matches (`count(*) OVER ()`, computed before
 * LIMIT/OFFSET), so rows and total are one statement. A page past the end has no row to carry the
 * total: only then does the caller run `count`, the same conditions without the page.
 *
 * With a range, recurring masters (`recurrence <> '{}'`) are not matched by their own times: their
 * series may reach into the range whatever their first occurrence's end, so every master that starts
 * before `to` comes back in the same statement (UNION ALL, flagged `master`, at most
 * MAX_MASTERS_PER_QUERY + 1 of them, by the partial index events_recurring_idx) for the service to
 * expand; the page and its total are then of the plain rows only.
 */
export function searchStatements(accountId: AccountId, s: EventSearch): SearchStatements {
  const p = new Params(accountId);
  const { base, range } = searchWhere(s, p);
  const plain = range ? [...base, ...overlaps(range), `e.recurrence = '{}'`] : base;
  const plainWhere = plain.join('\n  AND ');
  const count: Statement = {
    sql: `SELECT count(*)::int AS total FROM events e WHERE ${plainWhere}`,
    params: [...p.values],
  };
  // Sorting by `updated` orders only readable events by it; busy blocks follow, by start. Ties fall
  // back to what every caller sees (start, end) before the id, so equal-looking busy blocks are the
  // only items whose order depends on anything hidden. (events-read.service.ts orders occurrences
  // among these rows by the same keys.)
  const { by, direction } = s.sort;
  const nulls = direction === 'ASC' ? 'NULLS LAST' : 'NULLS FIRST';
  const order =
    by === 'updated'
      ? `CASE WHEN ${p.readable(s.readable)} THEN e.updated_at END ${direction} ${nulls}, e.starts_at ASC NULLS LAST`
      : `e.starts_at ${direction} ${nulls}`;
  const details = p.readable(s.readable);
  const rows = (limit: string, offset: string, master: string) =>
    `SELECT ${VIEW_COLUMNS}, ${details} AS details, count(*) OVER () AS total${master}
FROM events e
WHERE ${plainWhere}
ORDER BY ${order}, e.ends_at ASC NULLS LAST, e.id ASC
LIMIT ${limit} OFFSET ${offset}`;
  const frozen = [...p.values];
  const plainRows = (offset: number, limit: number): Statement => {
    const values = [...frozen];
    const bind = (v: unknown) => `$${values.push(v)}`;
    return { sql: rows(bind(limit), bind(offset), ''), params: values };
  };
  if (!range) {
    return {
      page: { sql: rows(p.bind(s.limit), p.bind(s.offset), ''), params: p.values },
      count,
      plainRows,
    };
  }
  const masters = [...base, `e.recurrence <> '{}'`, `e.starts_at < ${range.to}`].join('\n  AND ');
  const page: Statement = {
    sql: `(${rows(p.bind(s.limit), p.bind(s.offset), ', false AS master')})
UNION ALL
(SELECT ${VIEW_COLUMNS}, ${details} AS details, NULL::bigint AS total, true AS master
FROM events e
WHERE ${masters}
ORDER BY e.starts_at DESC, e.id ASC
LIMIT ${MAX_MASTERS_PER_QUERY + 1})`,
    params: p.values,
  };
  return { page, count, plainRows };
}

/**
 * Events of one product entity, in start order (at most one per entity type: the identity triple).
 * Without a type, the identity index (account, product, type, id) has no prefix for the entity id, so
 * the types the product uses are walked first, one index probe each (a loose index scan): the cost
 * follows the product's number of entity types, not of its events.
 */
export function entityStatement(accountId: AccountId, q: EntityEvents): Statement {
  const p = new Params(accountId);
  const product = p.bind(q.productId);
  const where = ['e.account_id = $1', `e.product_id = ${product}`, `e.entity_id = ${p.bind(q.entityId)}`];
  let types = '';
  if (q.entityType) {
    where.push(`e.entity_type = ${p.bind(q.entityType)}`);
  } else {
    types = `WITH RECURSIVE types(t) AS (
  SELECT min(entity_type) FROM events WHERE account_id = $1 AND product_id = ${product}
  UNION ALL
  SELECT (SELECT min(entity_type) FROM events WHERE account_id = $1 AND product_id = ${product} AND entity_type > types.t)
  FROM types WHERE types.t IS NOT NULL
)
`;
    where.push('e.entity_type = ANY(ARRAY(SELECT t FROM types WHERE t IS NOT NULL))');
  }
  if (q.excludeCancelled) where.push(`e.status <> 'cancelled'`);
  return {
    sql: `${types}SELECT ${VIEW_COLUMNS}, ${p.readable(q.readable)} AS details
FROM events e
WHERE ${where.join(' AND ')}
ORDER BY e.starts_at ASC, e.entity_type ASC`,
    params: p.values,
  };
}

/** One event addressed by its triple, for expansion; a person's only when they take part in it. */
export interface SeriesLookup {
  productId: string;
  entityType: string;
  entityId: string;
  /** A person: the event must list them among its people (owner or assignee). */
  participant?: string;
}

/** What expanding an event needs of it: its times, zone, lines, overrides and status. */
export interface SeriesRow {
  allDay: boolean;
  startsAt: Date | null;
  endsAt: Date | null;
  startDate: string | null;
  endDate: string | null;
  timeZone: string | null;
  status: 'confirmed' | 'tentative' | 'cancelled';
  recurrence: string[];
  recurrenceOverrides: StoredOverride[];
}

/** The series of one event by its triple (the identity index); a person's view adds their membership. */
export function seriesStatement(accountId: AccountId, q: SeriesLookup): Statement {
  const p = new Params(accountId);
  const where = [
    'e.account_id = $1',
    `e.product_id = ${p.bind(q.productId)}`,
    `e.entity_type = ${p.bind(q.entityType)}`,
    `e.entity_id = ${p.bind(q.entityId)}`,
  ];
  if (q.participant !== undefined) where.push(`${p.bind(q.participant)}::text = ANY(e.person_ids)`);
  return {
    sql: `SELECT e.all_day AS "allDay", e.starts_at AS "startsAt", e.ends_at AS "endsAt",
  to_char(e.start_date, 'YYYY-MM-DD') AS "startDate", to_char(e.end_date, 'YYYY-MM-DD') AS "endDate",
  e.time_zone AS "timeZone", e.status, e.recurrence, e.recurrence_overrides AS "recurrenceOverrides"
FROM events e
WHERE ${where.join(' AND ')}`,
    params: p.values,
  };
}
