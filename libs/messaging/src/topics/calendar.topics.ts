import { defineContract, type EventOf } from '../contract';
import { instant, nullableInstant, uuid } from '../json-schema';

/** The identity of a calendar event, shared by its topics. Lengths follow the calendar's EVENT_LIMITS. */
const identity = {
  eventId: uuid(
    "The calendar's id of the event; also the message key, so one event's messages stay in order.",
  ),
  accountId: {
    type: 'string',
    maxLength: 64,
    description: 'The calendar account (the tenant) the event belongs to; the `tenant-id` header repeats it.',
  },
  productId: {
    type: 'string',
    maxLength: 64,
    description: 'The partner product that wrote the event.',
  },
  entityType: {
    type: 'string',
    maxLength: 64,
    description: "The product's kind of record the event stands for, e.g. `deal`.",
  },
  entityId: {
    type: 'string',
    maxLength: 256,
    description:
      "The product's id of that record. (accountId, productId, entityType, entityId) identifies the event.",
  },
  version: {
    type: 'integer',
    minimum: 1,
    description:
      "The event's version: 1 when created, one more per change. Ignore a message whose version is not " +
      'above the one you applied.',
  },
} as const;

/** A product event was created or updated in the calendar (the walking skeleton's event). */
export const CalendarEventChanged = defineContract({
  topic: 'calendar.event.changed.v1',
  eventType: 'calendar.event.changed',
  schemaVersion: 1,
  aggregateType: 'calendar.event',
  description:
    'A calendar event was created or changed. Carries the event as it is after the change, not a diff.',
  key: 'eventId',
  producers: ['calendar'],
  schema: {
    ...identity,
    title: {
      type: ['string', 'null'],
      maxLength: 500,
      description: "The event's title; null when it has none.",
    },
    startsAt: nullableInstant(
      'Start, as an instant in UTC; for an all-day event, midnight in its time zone. Null when not set.',
    ),
    endsAt: nullableInstant('End (exclusive), as an instant in UTC. Null when not set.'),
    status: {
      type: 'string',
      enum: ['confirmed', 'tentative', 'cancelled'],
      description: "The event's status, as in iCalendar.",
    },
    changedAt: instant('When the change was made.'),
  },
  example: {
    eventId: '7c0b8b8e-4f6a-4b0e-9a5e-2f1d2c3b4a59',
    accountId: 'acme',
    productId: 'crm',
    entityType: 'deal',
    entityId: 'D-1042',
    version: 3,
    title: 'Contract review',
    startsAt: '2026-11-21T10:00:00.000Z',
    endsAt: '2026-11-21T11:00:00.000Z',
    status: 'confirmed',
    changedAt: '2026-11-20T09:15:02.120Z',
  },
});

/** A product event was removed from the calendar. */
export const CalendarEventRemoved = defineContract({
  topic: 'calendar.event.removed.v1',
  eventType: 'calendar.event.removed',
  schemaVersion: 1,
  aggregateType: 'calendar.event',
  description: 'A calendar event was removed. `version` is the version it had when it was removed.',
  key: 'eventId',
  producers: ['calendar'],
  schema: { ...identity, removedAt: instant('When the event was removed.') },
  example: {
    eventId: '7c0b8b8e-4f6a-4b0e-9a5e-2f1d2c3b4a59',
    accountId: 'acme',
    productId: 'crm',
    entityType: 'deal',
    entityId: 'D-1042',
    version: 3,
    removedAt: '2026-11-22T08:00:00.000Z',
  },
});

export type CalendarEventChangedV1 = EventOf<typeof CalendarEventChanged>;
export type CalendarEventRemovedV1 = EventOf<typeof CalendarEventRemoved>;
