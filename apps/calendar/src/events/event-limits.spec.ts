import { CalendarEventChanged, CalendarEventRemoved, violations } from '@platform/messaging';
import { EVENT_LIMITS } from './event-limits';

describe('one definition of length: the DTO limits and the Kafka contracts agree', () => {
  it.each([
    ['productId', EVENT_LIMITS.productId],
    ['entityType', EVENT_LIMITS.entityType],
    ['entityId', EVENT_LIMITS.entityId],
    ['title', EVENT_LIMITS.title],
  ])('%s: %i code points', (field, limit) => {
    for (const contract of [CalendarEventChanged, CalendarEventRemoved]) {
      const schema = contract.schema[field] as { maxLength?: number } | undefined;
      if (schema) expect([contract.topic, field, schema.maxLength]).toEqual([contract.topic, field, limit]);
    }
  });

  it('counts code points in the contract too: 500 emoji pass, 501 do not', () => {
    const payload = {
      eventId: '7c0b8b8e-4f6a-4b0e-9a5e-2f1d2c3b4a59',
      accountId: 'acme',
      productId: 'crm',
      entityType: 'deal',
      entityId: 'D-1',
      version: 1,
      title: '😀'.repeat(EVENT_LIMITS.title),
      startsAt: null,
      endsAt: null,
      status: 'confirmed',
      changedAt: '2026-12-01T10:00:00.000Z',
    };
    expect(violations(CalendarEventChanged, payload)).toEqual([]);
    expect(violations(CalendarEventChanged, { ...payload, title: `${payload.title}😀` })).toHaveLength(1);
  });
});
