import { defineContract } from '../contract';

export interface CalendarEventChangedV1 {
  eventId: string;
  accountId: string;
  productId: string;
  entityType: string;
  entityId: string;
  version: number;
  title: string | null;
  startsAt: string | null;
  endsAt: string | null;
  status: string;
  changedAt: string;
}

export interface CalendarEventRemovedV1 {
  eventId: string;
  accountId: string;
  productId: string;
  entityType: string;
  entityId: string;
  version: number;
  removedAt: string;
}

const identity = {
  eventId: { type: 'uuid' },
  accountId: { type: 'string', maxLength: 64 },
  productId: { type: 'string', maxLength: 64 },
  entityType: { type: 'string', maxLength: 64 },
  entityId: { type: 'string', maxLength: 256 },
  version: { type: 'integer', min: 1 },
} as const;

/** A product event was created or updated in the calendar (the walking skeleton's event). */
export const CalendarEventChanged = defineContract<CalendarEventChangedV1>({
  topic: 'calendar.event.changed.v1',
  eventType: 'calendar.event.changed',
  schemaVersion: 1,
  aggregateType: 'calendar.event',
  keyOf: (p) => p.eventId,
  schema: {
    ...identity,
    title: { type: 'string', nullable: true, maxLength: 500 },
    startsAt: { type: 'datetime', nullable: true },
    endsAt: { type: 'datetime', nullable: true },
    status: { type: 'enum', values: ['confirmed', 'tentative', 'cancelled'] },
    changedAt: { type: 'datetime' },
  },
});

export const CalendarEventRemoved = defineContract<CalendarEventRemovedV1>({
  topic: 'calendar.event.removed.v1',
  eventType: 'calendar.event.removed',
  schemaVersion: 1,
  aggregateType: 'calendar.event',
  keyOf: (p) => p.eventId,
  schema: { ...identity, removedAt: { type: 'datetime' } },
});
