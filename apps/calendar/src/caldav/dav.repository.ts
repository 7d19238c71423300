import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { TenantScopedRepository } from '@platform/persistence';
import { VIEW_COLUMNS } from '../events/event-read.repository';
import type { EventViewSource } from '../events/event.mapper';
import type { AccountId } from '../tenancy/tenant-ids';
import { DavCalendar } from './dav-calendar.entity';

import { DEFAULT_CALENDAR, PERSONAL_PRODUCT } from './personal-events';

export { DEFAULT_CALENDAR, PERSONAL_ENTITY_TYPE, PERSONAL_PRODUCT } from './personal-events';

/** A calendar object resource: the event with what CalDAV addresses and serves it by. */
export type DavMember = EventViewSource & {
  ical: string | null;
  icalUid: string | null;
  davName: string | null;
  davCalendar: string | null;
  /** personal: written over CalDAV (writable); product: read-only here. */
  personal: boolean;
};

/** Whose calendar: one person's collection of one account. */
export interface DavCollection {
  accountId: AccountId;
  person: string;
  calendar: string;
}

/** What a PROPPATCH may change on a calendar (null: removed). */
export interface CalendarPatch {
  displayName?: string | null;
  description?: string | null;
  color?: string | null;
}

/** The columns a time range is decided on (`spansIn`). */
export type DavSpan = Pick<
  DavMember,
  | 'id'
  | 'allDay'
  | 'startsAt'
  | 'endsAt'
  | 'startDate'
  | 'endDate'
  | 'timeZone'
  | 'recurrence'
  | 'recurrenceOverrides'
  | 'status'
  | 'transparency'
>;

export interface JournalChange {
  eventId: string;
  cursor: number;
  davName: string | null;
  personal: boolean;
  /** The event as it is now when it still belongs to the collection; null when it left or is gone. */
  member: DavMember | null;
}

const MEMBER_COLUMNS = `${VIEW_COLUMNS}, e.ical, e.ical_uid AS "icalUid", e.dav_name AS "davName",
  e.dav_calendar AS "davCalendar", e.product_id = '${PERSONAL_PRODUCT}' AS personal`;

/**
 * Membership of a person's calendar as SQL over `events e`: `$2` the person, `$3` the calendar. The
 * default calendar also holds the product events whose people include the person (GIN on person_ids).
 */
const IN_COLLECTION = `e.account_id = $1 AND (
  (e.product_id = '${PERSONAL_PRODUCT}' AND e.owner_person_id = $2 AND e.dav_calendar = $3)
  OR ($3 = '${DEFAULT_CALENDAR}' AND e.product_id <> '${PERSONAL_PRODUCT}' AND e.person_ids && ARRAY[$2]::text[]))`;

/**
 * CalDAV's reads: members of a person's calendar (all, in a time range, by name), the journal since a
 * sync token, and the calendars made with MKCALENDAR. Every statement starts from its account ($1).
 */
@Injectable()
export class DavRepository extends TenantScopedRepository<DavCalendar, 'accountId'> {
  constructor(@InjectDataSource() ds: DataSource) {
    super(ds, DavCalendar, 'accountId');
  }

  private params(c: DavCollection): [string, string] {
    return [c.person, c.calendar];
  }

  /**
   * Members overlapping [from, to), plus every recurring master that starts before `to` (its series may
   * reach in; the caller expands it). Without a range, every member.
   */
  members(c: DavCollection, range?: { from: Date; to: Date }): Promise<DavMember[]> {
    if (!range) {
      return this.sql<DavMember>(
        c.accountId,
        `SELECT ${MEMBER_COLUMNS} FROM events e WHERE ${IN_COLLECTION}`,
        [...this.params(c)],
      );
    }
    return this.sql<DavMember>(
      c.accountId,
      `SELECT ${MEMBER_COLUMNS} FROM events e WHERE ${IN_COLLECTION}
        AND e.starts_at < $5 AND (
          (e.ends_at >= $4 AND (e.ends_at > $4 OR e.starts_at = e.ends_at))
          OR ((e.recurrence <> '{}' OR e.recurrence_overrides <> '[]'::jsonb)
            AND (e.series_ends_at IS NULL OR e.series_ends_at >= $4)))`,
      [...this.params(c), range.from, range.to],
    );
  }

  /**
   * What a time range is decided on, for the members `members(c, range)` would return: the series
   * columns only (no text), so a query over a large calendar reads little before it knows its matches.
   */
  spansIn(c: DavCollection, range: { from: Date; to: Date }): Promise<DavSpan[]> {
    return this.sql<DavSpan>(
      c.accountId,
      `SELECT e.id, e.all_day AS "allDay", e.starts_at AS "startsAt", e.ends_at AS "endsAt",
        to_char(e.start_date, 'YYYY-MM-DD') AS "startDate", to_char(e.end_date, 'YYYY-MM-DD') AS "endDate",
        e.time_zone AS "timeZone", e.recurrence, e.recurrence_overrides AS "recurrenceOverrides",
        e.status, e.transparency
       FROM events e WHERE ${IN_COLLECTION}
        AND e.starts_at < $5 AND (
          (e.ends_at >= $4 AND (e.ends_at > $4 OR e.starts_at = e.ends_at))
          OR ((e.recurrence <> '{}' OR e.recurrence_overrides <> '[]'::jsonb)
            AND (e.series_ends_at IS NULL OR e.series_ends_at >= $4)))`,
      [...this.params(c), range.from, range.to],
    );
  }

  /** Members by event id (those still in the collection). */
  byIds(c: DavCollection, ids: readonly string[]): Promise<DavMember[]> {
    if (!ids.length) return Promise.resolve([]);
    return this.sql<DavMember>(
      c.accountId,
      `SELECT ${MEMBER_COLUMNS} FROM events e WHERE ${IN_COLLECTION} AND e.id = ANY($4::uuid[])`,
      [...this.params(c), ids],
    );
  }

  /**
   * A PUT's lookups in one statement: the member at `name`, and the name holding `uid` in the same
   * calendar (CALDAV:no-uid-conflict names it).
   */
  async forPut(
    c: DavCollection,
    name: string,
    uid: string,
  ): Promise<{ current: DavMember | null; uidHolder: string | null }> {
    const [row] = await this.sql<{ current: DavMember | null; uidHolder: string | null }>(
      c.accountId,
      `SELECT (SELECT to_jsonb(m) FROM (SELECT ${MEMBER_COLUMNS} FROM events e WHERE ${IN_COLLECTION}
                 AND ((e.product_id = '${PERSONAL_PRODUCT}' AND e.dav_name = $4)
                   OR (e.product_id <> '${PERSONAL_PRODUCT}' AND e.id::text = $6))) m LIMIT 1) AS current,
              (SELECT e.dav_name FROM events e WHERE e.account_id = $1 AND e.product_id = '${PERSONAL_PRODUCT}'
                 AND e.owner_person_id = $2 AND e.dav_calendar = $3 AND e.ical_uid = $5) AS "uidHolder"`,
      [...this.params(c), name, uid, /^([0-9a-f-]{36})\.ics$/i.exec(name)?.[1]?.toLowerCase() ?? ''],
    );
    return { current: row.current ? revive(row.current) : null, uidHolder: row.uidHolder };
  }

  /** Members by resource name: a personal event by its name, a product event by `<id>.ics`. */
  byNames(c: DavCollection, names: readonly string[]): Promise<DavMember[]> {
    if (!names.length) return Promise.resolve([]);
    const ids = names.map((n) => /^([0-9a-f-]{36})\.ics$/i.exec(n)?.[1]?.toLowerCase()).filter(Boolean);
    return this.sql<DavMember>(
      c.accountId,
      `SELECT ${MEMBER_COLUMNS} FROM events e WHERE ${IN_COLLECTION}
        AND ((e.product_id = '${PERSONAL_PRODUCT}' AND e.dav_name = ANY($4::text[]))
          OR (e.product_id <> '${PERSONAL_PRODUCT}' AND e.id = ANY($5::uuid[])))`,
      [...this.params(c), names, ids],
    );
  }

  async byName(c: DavCollection, name: string): Promise<DavMember | null> {
    const [m] = await this.byNames(c, [name]);
    return m ?? null;
  }

  /** The account's last journal cursor: the sync token and CTag of every collection of the account. */
  async lastCursor(accountId: AccountId): Promise<number> {
    const [row] = await this.sql<{ last: string | null }>(
      accountId,
      `SELECT (SELECT last_cursor FROM account_cursors WHERE account_id = $1) AS last`,
    );
    return Number(row?.last ?? 0);
  }

  /**
   * What changed in the collection after `cursor` (RFC 6578): the last journal entry of each event
   * that touched it, with the event as it is now when it is still a member.
   */
  async changesSince(c: DavCollection, cursor: number, limit: number): Promise<JournalChange[]> {
    const rows = await this.sql<Omit<JournalChange, 'member'> & { member: DavMember | null }>(
      c.accountId,
      `WITH changed AS (
         SELECT DISTINCT ON (j.event_id) j.event_id, j.cursor, j.dav_name, j.product_id
         FROM journal j
         WHERE j.account_id = $1 AND j.cursor > $4 AND (
           (j.product_id = '${PERSONAL_PRODUCT}' AND j.dav_calendar = $3 AND j.person_ids && ARRAY[$2]::text[])
           OR ($3 = '${DEFAULT_CALENDAR}' AND j.product_id <> '${PERSONAL_PRODUCT}' AND j.person_ids && ARRAY[$2]::text[]))
         ORDER BY j.event_id, j.cursor DESC)
       SELECT ch.event_id AS "eventId", ch.cursor, ch.dav_name AS "davName",
         ch.product_id = '${PERSONAL_PRODUCT}' AS personal,
         (SELECT to_jsonb(m) FROM (SELECT ${MEMBER_COLUMNS} FROM events e WHERE e.id = ch.event_id AND ${IN_COLLECTION}) m) AS member
       FROM changed ch ORDER BY ch.cursor LIMIT $5`,
      [...this.params(c), cursor, limit],
    );
    return rows.map((r) => ({ ...r, cursor: Number(r.cursor), member: r.member ? revive(r.member) : null }));
  }

  /**
   * Sets a calendar's names and color (null: removed). The default calendar gets a row of its own on
   * its first PROPPATCH; a made one must exist.
   */
  async patchCalendar(
    accountId: AccountId,
    person: string,
    slug: string,
    patch: CalendarPatch,
  ): Promise<void> {
    const cols = { displayName: 'display_name', description: 'description', color: 'color' } as const;
    const keys = (Object.keys(patch) as (keyof CalendarPatch)[]).filter((k) => patch[k] !== undefined);
    if (!keys.length) return;
    const values = keys.map((k) => (k === 'displayName' ? (patch[k] ?? slug) : patch[k]));
    const sets = keys.map((k, i) => `${cols[k]} = $${i + 4}`).join(', ');
    await this.sql(
      accountId,
      `INSERT INTO dav_calendars (account_id, person_id, slug, display_name)
         SELECT $1, $2, $3, $3 WHERE $3 = '${DEFAULT_CALENDAR}'
         ON CONFLICT (account_id, person_id, slug) DO NOTHING`,
      [person, slug],
    );
    await this.sql(
      accountId,
      `UPDATE dav_calendars SET ${sets} WHERE account_id = $1 AND person_id = $2 AND slug = $3`,
      [person, slug, ...values],
    );
  }

  calendars(accountId: AccountId, person: string): Promise<DavCalendar[]> {
    return this.find(accountId, { personId: person }, { createdAt: 'ASC' });
  }

  calendar(accountId: AccountId, person: string, slug: string): Promise<DavCalendar | null> {
    return this.findOne(accountId, { personId: person, slug });
  }

  /** False when the calendar exists already. */
  async createCalendar(
    accountId: AccountId,
    row: {
      personId: string;
      slug: string;
      displayName: string;
      color: string | null;
      description: string | null;
    },
  ): Promise<boolean> {
    return (await this.insertIfAbsent(accountId, [row])) === 1;
  }

  /** Deletes an empty calendar; false when it holds events (or is gone). */
  async deleteEmptyCalendar(
    accountId: AccountId,
    person: string,
    slug: string,
  ): Promise<'deleted' | 'not-empty' | 'gone'> {
    const [row] = await this.sql<{ deleted: number; members: number }>(
      accountId,
      `WITH members AS (
         SELECT count(*)::int AS n FROM events e WHERE e.account_id = $1 AND e.product_id = '${PERSONAL_PRODUCT}'
           AND e.owner_person_id = $2 AND e.dav_calendar = $3),
       deleted AS (
         DELETE FROM dav_calendars d USING members m
         WHERE d.account_id = $1 AND d.person_id = $2 AND d.slug = $3 AND m.n = 0 RETURNING 1)
       SELECT (SELECT count(*)::int FROM deleted) AS deleted, (SELECT n FROM members) AS members`,
      [person, slug],
    );
    if (row.deleted) return 'deleted';
    return row.members > 0 ? 'not-empty' : 'gone';
  }
}

/** A member read back from JSON (the change feed's subselect): timestamps as dates again. */
function revive(m: DavMember): DavMember {
  const date = (v: unknown) => (v === null || v === undefined ? null : new Date(v as string));
  return {
    ...m,
    startsAt: date(m.startsAt),
    endsAt: date(m.endsAt),
    createdAt: date(m.createdAt) as Date,
    updatedAt: date(m.updatedAt) as Date,
  };
}
