import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { TenantScopedRepository } from '@platform/persistence';
import { CalendarEvent, type StoredOverride } from '../events/calendar-event.entity';
import type { Statement } from '../events/event-read.repository';
import type { AccountId } from '../tenancy/tenant-ids';

/** Whose busy time, over which window [from, to). */
export interface BusyQuery {
  /** Person ids (owner or assignee of an event). */
  people: readonly string[];
  /** Resources as events store them, `type:id`. */
  resources: readonly string[];
  from: Date;
  to: Date;
}

/**
 * What free/busy needs of an event, and nothing else: no title, location, product or entity id ever
 * leaves the database for these endpoints. The series columns (times, zone, lines, overrides) are
 * what the recurrence engine expands (availability.service.ts `busyIntervalsOf`).
 */
export interface BusyRow {
  startsAt: Date;
  endsAt: Date;
  allDay: boolean;
  startDate: string | null;
  endDate: string | null;
  status: 'confirmed' | 'tentative';
  personIds: string[];
  resourceIds: string[];
  recurrence: string[];
  recurrenceOverrides: StoredOverride[];
  timeZone: string | null;
}

/** At most this many recurring masters are read per free/busy or slot search (the latest-starting). */
export const MAX_BUSY_MASTERS = 1000;

const BUSY_COLUMNS = `e.starts_at AS "startsAt", e.ends_at AS "endsAt", e.all_day AS "allDay",
  to_char(e.start_date, 'YYYY-MM-DD') AS "startDate", to_char(e.end_date, 'YYYY-MM-DD') AS "endDate",
  e.status, e.person_ids AS "personIds", e.resource_ids AS "resourceIds", e.recurrence,
  e.recurrence_overrides AS "recurrenceOverrides", e.time_zone AS "timeZone"`;

/**
 * One statement: the account's events that block time in [from, to) for any of the people or
 * resources. Cancelled events never block; an event of zero length blocks nothing, so unlike the
 * events query it is not matched at `from` (an empty period overlaps nothing). The overlap is `&&` of
 * half-open periods, answered by the GiST index on (account, period) from both sides (migration
 * EventsPeriodIndex; bench/freebusy.bench.ts: 200 people x 30 days over 100,000 events was a
 * sequential scan of 77 ms with the btree bounds); the participant filter is `&&` on the arrays.
 *
 * Recurring masters are not matched by their own interval: their series may reach into the range
 * whatever their first occurrence's end, so every master that starts before `to` is read too (UNION
 * ALL, the partial index events_recurring_idx; at most MAX_BUSY_MASTERS, the latest-starting) and
 * expanded by the service.
 */
export function busyStatement(accountId: AccountId, q: BusyQuery): Statement {
  const params: unknown[] = [accountId, q.from, q.to];
  const bind = (v: unknown) => `$${params.push(v)}`;
  const who: string[] = [];
  if (q.people.length) who.push(`e.person_ids && ${bind([...q.people])}::text[]`);
  if (q.resources.length) who.push(`e.resource_ids && ${bind([...q.resources])}::text[]`);
  const whom = `(${who.length ? who.join(' OR ') : 'false'})`;
  return {
    sql: `SELECT ${BUSY_COLUMNS}
FROM events e
WHERE e.account_id = $1
  AND tstzrange(e.starts_at, e.ends_at, '[)') && tstzrange($2::timestamptz, $3::timestamptz, '[)')
  AND e.status <> 'cancelled' AND e.transparency = 'opaque'
  AND e.recurrence = '{}'
  AND ${whom}
UNION ALL
(SELECT ${BUSY_COLUMNS}
FROM events e
WHERE e.account_id = $1
  AND e.recurrence <> '{}'
  AND e.starts_at < $3::timestamptz
  AND e.status <> 'cancelled' AND e.transparency = 'opaque'
  AND ${whom}
ORDER BY e.starts_at DESC
LIMIT ${MAX_BUSY_MASTERS})`,
    params,
  };
}

/** Busy time of people and resources, as plain rows (no ORM hydration), for free/busy and slot search. */
@Injectable()
export class AvailabilityRepository extends TenantScopedRepository<CalendarEvent, 'accountId'> {
  constructor(@InjectDataSource() ds: DataSource) {
    super(ds, CalendarEvent, 'accountId');
  }

  async busyRows(accountId: AccountId, q: BusyQuery): Promise<BusyRow[]> {
    if (!q.people.length && !q.resources.length) return [];
    const st = busyStatement(accountId, q);
    // busyStatement binds the account first, as the door's `$1`.
    return this.sql<BusyRow>(accountId, st.sql, st.params.slice(1));
  }
}
