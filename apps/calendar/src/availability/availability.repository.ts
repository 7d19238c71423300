import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { TenantScopedRepository } from '@platform/persistence';
import { CalendarEvent } from '../events/calendar-event.entity';
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
 * leaves the database for these endpoints. `recurrence` and `timeZone` are there for the expansion
 * seam (availability.service.ts `busyIntervalsOf`).
 */
export interface BusyRow {
  startsAt: Date;
  endsAt: Date;
  status: 'confirmed' | 'tentative';
  personIds: string[];
  resourceIds: string[];
  recurrence: string[];
  timeZone: string | null;
}

/**
 * One statement: the account's events that block time in [from, to) for any of the people or
 * resources. Cancelled events never block; an event of zero length blocks nothing, so unlike the
 * events query it is not matched at `from`. The time bounds are index conditions of
 * (account, start, end) and (account, end, start); the participant filter is `&&` on the GIN indexes
 * of `person_ids` and `resource_ids`. No new index: EXPLAIN in availability.int-spec.ts (6,000 rows over a
 * year) walks events_account_time_idx for a week and filters the arrays; the 200-people x 30-days
 * target over 100k events is for the benchmark to confirm.
 *
 * Recurring events: today a master row is matched by its own interval, like any event. When
 * libs/recurrence expands them, masters whose series reaches into the range (`recurrence <> '{}'` and
 * a start before `to`) must be read as well, whatever their own end.
 */
export function busyStatement(accountId: AccountId, q: BusyQuery): Statement {
  const params: unknown[] = [accountId, q.from, q.to];
  const bind = (v: unknown) => `$${params.push(v)}`;
  const who: string[] = [];
  if (q.people.length) who.push(`e.person_ids && ${bind([...q.people])}::text[]`);
  if (q.resources.length) who.push(`e.resource_ids && ${bind([...q.resources])}::text[]`);
  return {
    sql: `SELECT e.starts_at AS "startsAt", e.ends_at AS "endsAt", e.status, e.person_ids AS "personIds",
  e.resource_ids AS "resourceIds", e.recurrence, e.time_zone AS "timeZone"
FROM events e
WHERE e.account_id = $1
  AND e.starts_at < $3::timestamptz
  AND e.ends_at > $2::timestamptz
  AND e.status <> 'cancelled'
  AND (${who.length ? who.join(' OR ') : 'false'})`,
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
    return (await this.ds.query(st.sql, st.params)) as BusyRow[];
  }
}
