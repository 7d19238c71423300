import { randomUUID } from 'node:crypto';
import { assertValid, ContractViolation, defineContract, violations } from './contract';
import { CalendarEventChanged } from './topics/calendar.topics';
import { CONTRACTS } from './registry';

const valid = () => ({
  eventId: randomUUID(),
  accountId: 'acc-1',
  productId: 'crm',
  entityType: 'deal',
  entityId: '42',
  version: 1,
  title: 'Call',
  startsAt: '2026-11-21T10:00:00Z',
  endsAt: null,
  status: 'confirmed',
  changedAt: '2026-11-21T09:00:00.000Z',
});

describe('topic contracts', () => {
  it('accepts a valid payload', () => {
    expect(violations(CalendarEventChanged, valid())).toEqual([]);
  });

  it('names every problem of an invalid payload', () => {
    const bad = { ...valid(), version: 0, status: 'maybe', startsAt: 'tomorrow', extra: 1 } as Record<
      string,
      unknown
    >;
    delete bad.entityId;
    const problems = violations(CalendarEventChanged, bad);
    expect(problems).toEqual(
      expect.arrayContaining([
        'version must be >= 1',
        'status must be one of confirmed|tentative|cancelled',
        'startsAt must be an ISO 8601 date-time with offset',
        'entityId is required',
        'extra is not part of the contract',
      ]),
    );
    expect(() => assertValid(CalendarEventChanged, bad)).toThrow(ContractViolation);
  });

  it('enforces the topic naming convention and version agreement', () => {
    expect(() =>
      defineContract({
        topic: 'CalendarChanged',
        eventType: 'x',
        schemaVersion: 1,
        aggregateType: 'x',
        keyOf: () => '',
        schema: {},
      }),
    ).toThrow(/does not follow/);
    expect(() =>
      defineContract({
        topic: 'a.b.c.v2',
        eventType: 'x',
        schemaVersion: 1,
        aggregateType: 'x',
        keyOf: () => '',
        schema: {},
      }),
    ).toThrow(/disagree/);
  });

  it('registers every contract under its topic, each versioned', () => {
    for (const [topic, c] of CONTRACTS) {
      expect(c.topic).toBe(topic);
      expect(topic.endsWith(`.v${c.schemaVersion}`)).toBe(true);
    }
  });
});
