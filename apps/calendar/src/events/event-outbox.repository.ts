import { Injectable } from '@nestjs/common';
import {
  CalendarEventChanged,
  CalendarEventRemoved,
  type CalendarEventChangedV1,
  type CalendarEventRemovedV1,
} from '@platform/messaging';
import { isoInstantSql, prepareOutboxAppend, type AppendOptions, type OutboxAppend } from '@platform/outbox';
import { CALENDAR_SCHEMA } from '../tenancy/tenant-ids';

/**
 * The calendar's outbox events, written by the write statement itself (libs/outbox owns the outbox
 * SQL). Each is validated against its contract when prepared, before the statement runs; the fields
 * only the written row knows are filled in from its columns.
 */
@Injectable()
export class EventOutboxRepository {
  /** The event as it is after the change: its id and change time come from the written events row. */
  changed(payload: Omit<CalendarEventChangedV1, 'eventId' | 'changedAt'>, opts: AppendOptions): OutboxAppend {
    return prepareOutboxAppend(CALENDAR_SCHEMA, CalendarEventChanged, payload, opts, {
      eventId: 'id',
      changedAt: isoInstantSql('updated_at'),
    });
  }

  /**
   * The event as the written row has it, every field from its columns: for writes that change only the
   * room or the attendees, whose statement does not know the rest of the event (decision 0017).
   */
  changedFromRow(opts: AppendOptions): OutboxAppend {
    return prepareOutboxAppend(CALENDAR_SCHEMA, CalendarEventChanged, {}, opts, {
      eventId: 'id',
      accountId: 'account_id',
      productId: 'product_id',
      entityType: 'entity_type',
      entityId: 'entity_id',
      version: 'version',
      title: 'title',
      startsAt: isoInstantSql('starts_at'),
      endsAt: isoInstantSql('ends_at'),
      status: 'status',
      changedAt: isoInstantSql('updated_at'),
    });
  }

  /** The removal: id and version are those of the deleted events row. */
  removed(payload: Omit<CalendarEventRemovedV1, 'eventId' | 'version'>, opts: AppendOptions): OutboxAppend {
    return prepareOutboxAppend(CALENDAR_SCHEMA, CalendarEventRemoved, payload, opts, {
      eventId: 'id',
      version: 'version',
    });
  }
}
