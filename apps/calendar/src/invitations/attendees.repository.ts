import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { isoInstantSql } from '@platform/outbox';
import { TenantScopedRepository } from '@platform/persistence';
import type { AccountId } from '../tenancy/tenant-ids';
import { CalendarEvent } from '../events/calendar-event.entity';
import { asEntity, WriteStatement, writtenEvent, type WriteParts } from '../events/event-write.repository';
import type { Answer, AttendeeKind, AttendeeRole } from './event-attendee.entity';
import { EventAttendee } from './event-attendee.entity';

export interface Invitee {
  kind: AttendeeKind;
  key: string;
  role: AttendeeRole;
}

/** found: the event (at the version, of the owner) exists; written: its version moved. */
export type AttendeeWrite =
  { kind: 'not-found' } | { kind: 'unchanged' } | { kind: 'written'; event: CalendarEvent; cursor: number };

/**
 * The attendee rows `source` returned, merged into the event's `attendees` list as the API shows it:
 * changed entries replaced in place, new ones appended. It reads `e.attendees` of the row being updated,
 * which PostgreSQL re-reads when a concurrent writer changed it first, so no write is lost (the table's
 * rows could be read only as of the statement's snapshot).
 */
function mergedAttendees(source: string): string {
  const view = (a: string) => `jsonb_build_object('kind', ${a}.kind,
      CASE WHEN ${a}.kind = 'person' THEN 'id' ELSE 'email' END, ${a}.attendee_key,
      'role', ${a}.role, 'partstat', ${a}.partstat,
      'responded_at', ${isoInstantSql(`${a}.responded_at`)}, 'comment', ${a}.comment)`;
  const keyOf = (v: string) => `coalesce(${v}->>'id', ${v}->>'email')`;
  return `(SELECT coalesce(jsonb_agg(m.v ORDER BY m.pos, m.k), '[]'::jsonb) FROM (
      SELECT CASE WHEN a.kind IS NULL THEN old.v ELSE ${view('a')} END AS v, old.pos, '' AS k
        FROM jsonb_array_elements(e.attendees) WITH ORDINALITY AS old(v, pos)
        LEFT JOIN ${source} a ON a.kind = old.v->>'kind' AND a.attendee_key = ${keyOf('old.v')}
      UNION ALL
      SELECT ${view('n')}, 2147483647, (CASE WHEN n.kind = 'person' THEN '0' ELSE '1' END) || n.attendee_key FROM ${source} n
        WHERE NOT EXISTS (SELECT 1 FROM jsonb_array_elements(e.attendees) o(v)
          WHERE o.v->>'kind' = n.kind AND ${keyOf('o.v')} = n.attendee_key)
    ) m)`;
}

/**
 * Invited people and guests of events. Every change is one statement (its own transaction, like
 * event-write.repository.ts): it locks the event row, writes the attendee rows, bumps the event's
 * version with the merged list, and appends the outbox event and the journal entry.
 */
@Injectable()
export class AttendeesRepository extends TenantScopedRepository<EventAttendee, 'accountId'> {
  constructor(@InjectDataSource() ds: DataSource) {
    super(ds, EventAttendee, 'accountId');
  }

  ofEvent(accountId: AccountId, eventId: string): Promise<EventAttendee[]> {
    return this.find(accountId, { eventId }, { invitedAt: 'ASC', attendeeKey: 'ASC' });
  }

  one(accountId: AccountId, eventId: string, kind: AttendeeKind, key: string): Promise<EventAttendee | null> {
    return this.findOne(accountId, { eventId, kind, attendeeKey: key });
  }

  /** The event by id in the account, for the rsvp link (which names the event by id). */
  async event(accountId: AccountId, eventId: string): Promise<CalendarEvent | null> {
    return this.asTenant(accountId, (m) =>
      m.getRepository(CalendarEvent).findOneBy({ accountId, id: eventId }),
    );
  }

  /**
   * Adds attendees (new ones NEEDS-ACTION; one invited again keeps their answer, only a changed role is
   * written). The version moves only when a row was added or changed.
   */
  invite(
    accountId: AccountId,
    eventId: string,
    when: { version?: number; ownerPersonId?: string },
    invitees: Invitee[],
    invitedBy: string,
    parts: WriteParts,
  ): Promise<AttendeeWrite> {
    const st = new WriteStatement(accountId);
    this.target(st, eventId, when);
    st.with(
      'changed',
      `INSERT INTO event_attendees AS a (event_id, account_id, kind, attendee_key, role, invited_by)
  SELECT t.id, t.account_id, i.kind, i.attendee_key, i.role, ${st.bind(invitedBy)}
    FROM target t CROSS JOIN jsonb_to_recordset(${st.bind(
      JSON.stringify(invitees.map((i) => ({ kind: i.kind, attendee_key: i.key, role: i.role }))),
    )}::jsonb) AS i(kind text, attendee_key text, role text)
  ON CONFLICT (event_id, kind, attendee_key) DO UPDATE SET role = EXCLUDED.role
    WHERE a.role IS DISTINCT FROM EXCLUDED.role
  RETURNING a.*`,
    );
    return this.bump(accountId, st, parts);
  }

  /** Records an attendee's answer; the same answer and comment again change nothing. */
  answer(
    accountId: AccountId,
    eventId: string,
    who: { kind: AttendeeKind; key: string },
    answer: Answer,
    comment: string | null,
    parts: WriteParts,
  ): Promise<AttendeeWrite> {
    const st = new WriteStatement(accountId);
    this.target(st, eventId, {});
    const p = st.bind(answer);
    const c = st.bind(comment);
    st.with(
      'changed',
      `UPDATE event_attendees a SET partstat = ${p}, comment = ${c}, responded_at = now()
  FROM target t
  WHERE a.event_id = t.id AND a.kind = ${st.bind(who.kind)} AND a.attendee_key = ${st.bind(who.key)}
    AND (a.partstat, a.comment) IS DISTINCT FROM (${p}::text, ${c}::text)
  RETURNING a.*`,
    );
    return this.bump(accountId, st, parts);
  }

  /** The event row, locked for the statement: the version and owner are checked on its latest version. */
  private target(
    st: WriteStatement,
    eventId: string,
    when: { version?: number; ownerPersonId?: string },
  ): void {
    const conditions = [
      `account_id = $1`,
      `id = ${st.bind(eventId)}`,
      ...(when.version === undefined ? [] : [`version = ${st.bind(when.version)}`]),
      ...(when.ownerPersonId === undefined ? [] : [`owner_person_id = ${st.bind(when.ownerPersonId)}`]),
    ];
    st.with('target', `SELECT id, account_id FROM events WHERE ${conditions.join(' AND ')} FOR UPDATE`);
  }

  private async bump(accountId: AccountId, st: WriteStatement, parts: WriteParts): Promise<AttendeeWrite> {
    st.with(
      'written',
      `UPDATE events e SET version = e.version + 1, updated_at = now(), attendees = ${mergedAttendees('changed')}
  FROM target t WHERE e.id = t.id AND EXISTS (SELECT 1 FROM changed)
  RETURNING e.*`,
    );
    st.with('outboxed', parts.outbox.insertSql(st.bind, 'written'));
    const cursor = parts.journal.addTo(st, 'written');
    const meta = this.metadataOf(CalendarEvent);
    const sql = st.sql(
      `SELECT ${asEntity(meta, 'w')}, c.cursor FROM target t
  LEFT JOIN written w ON true LEFT JOIN ${cursor} c ON true`,
    );
    const [row] = await this.sql<Record<string, unknown>>(accountId, sql, st.params.slice(1));
    if (!row) return { kind: 'not-found' };
    if (row.id === null) return { kind: 'unchanged' };
    return { kind: 'written', ...writtenEvent(row) };
  }
}
