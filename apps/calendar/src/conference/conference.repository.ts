import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { TenantScopedRepository } from '@platform/persistence';
import type { AccountId } from '../tenancy/tenant-ids';
import { CalendarEvent, type EventConference } from '../events/calendar-event.entity';
import { asEntity, WriteStatement, writtenEvent, type WriteParts } from '../events/event-write.repository';
import type { EventIdentity } from '../events/events.repository';

/** Who may attach: a product (its own triple, checked by the caller) or the event's owner person. */
export interface AttachCondition {
  /** Only at this version, when the caller sent one. */
  version?: number;
  /** Only if this person owns the event. */
  ownerPersonId?: string;
}

/** Conference rooms of events: the room is a column of the event, written like any other change. */
@Injectable()
export class ConferenceRepository extends TenantScopedRepository<CalendarEvent, 'accountId'> {
  constructor(@InjectDataSource() ds: DataSource) {
    super(ds, CalendarEvent, 'accountId');
  }

  byIdentity(accountId: AccountId, id: EventIdentity): Promise<CalendarEvent | null> {
    return this.findOne(accountId, id);
  }

  /**
   * Sets the room of an event that has none, bumping its version, with the outbox event and journal
   * entry, in one statement (its own transaction, like event-write.repository.ts). `conference IS NULL`
   * is the UPDATE's own condition, so of concurrent attaches exactly one writes; the others get no row
   * and read the winner's room.
   */
  async attach(
    accountId: AccountId,
    eventId: string,
    conference: EventConference,
    when: AttachCondition,
    parts: WriteParts,
  ): Promise<{ event: CalendarEvent; cursor: number } | null> {
    const st = new WriteStatement(accountId);
    const conditions = [
      `account_id = $1`,
      `id = ${st.bind(eventId)}`,
      'conference IS NULL',
      ...(when.version === undefined ? [] : [`version = ${st.bind(when.version)}`]),
      ...(when.ownerPersonId === undefined ? [] : [`owner_person_id = ${st.bind(when.ownerPersonId)}`]),
    ];
    st.with(
      'written',
      `UPDATE events SET conference = ${st.bind(JSON.stringify(conference))}::jsonb,
    version = version + 1, updated_at = now()
  WHERE ${conditions.join(' AND ')}
  RETURNING *`,
    );
    st.with('outboxed', parts.outbox.insertSql(st.bind, 'written'));
    const cursor = parts.journal.addTo(st, 'written');
    const sql = st.sql(
      `SELECT ${asEntity(this.metadata, 'w')}, c.cursor FROM written w CROSS JOIN ${cursor} c`,
    );
    const [row] = await this.sql<Record<string, unknown>>(accountId, sql, st.params.slice(1));
    return row ? writtenEvent(row) : null;
  }
}
