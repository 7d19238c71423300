import { randomUUID } from 'node:crypto';
import {
  assertValid,
  ContractViolation,
  defineContract,
  defineEventFamily,
  defineEventType,
  violations,
  type EventOf,
} from './contract';
import { CalendarEventChanged } from './topics/calendar.topics';
import { ServiceHealthReported } from './topics/platform.topics';
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

/** The smallest contract the definition checks accept, with `over` replacing parts of it. */
const define = (over: Record<string, unknown>) =>
  defineContract({
    topic: 'a.b.c.v1',
    eventType: 'a.b.c',
    schemaVersion: 1,
    aggregateType: 'a.b',
    key: 'id',
    schema: { id: { type: 'string' } },
    ...over,
  } as unknown as Parameters<typeof defineContract>[0]);

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

  it('says each problem once, in words, for every kind of value', () => {
    expect(violations(CalendarEventChanged, [])).toEqual(['payload must be an object']);
    expect(violations(CalendarEventChanged, null)).toEqual(['payload must be an object']);
    expect(
      violations(CalendarEventChanged, {
        ...valid(),
        eventId: 7,
        accountId: null,
        version: 1.5,
        title: 3,
        status: 5,
        changedAt: 12,
      }).sort(),
    ).toEqual(
      [
        'eventId must be a UUID',
        'accountId must not be null',
        'version must be an integer',
        'title must be a string',
        'status must be one of confirmed|tentative|cancelled',
        'changedAt must be an ISO 8601 date-time with offset',
      ].sort(),
    );
    expect(violations(ServiceHealthReported, { ...ServiceHealthReported.example, checks: 'ok' })).toEqual([
      'checks must be an object',
    ]);
  });

  it('takes instants as the platform writes them, and only those', () => {
    const at = (changedAt: string) => violations(CalendarEventChanged, { ...valid(), changedAt });
    for (const ok of ['2026-11-21T09:00:00Z', '2026-11-21T09:00:00.123456Z', '2026-11-21T12:00:00+03:00'])
      expect([ok, at(ok)]).toEqual([ok, []]);
    for (const bad of [
      'tomorrow',
      '2026-11-21',
      '2026-11-21T09:00Z',
      '2026-11-21t09:00:00z',
      '2026-11-21 09:00:00Z',
      '2026-11-21T09:00:00+0300',
      '2026-11-21T09:00:00',
      '2026-02-30T09:00:00Z',
      '2026-12-31T23:59:60Z',
      '2026-11-21T25:00:00Z',
      '+012026-11-21T09:00:00Z',
    ])
      expect([bad, at(bad)]).toEqual([bad, ['changedAt must be an ISO 8601 date-time with offset']]);
    expect(violations(CalendarEventChanged, { ...valid(), eventId: `urn:uuid:${randomUUID()}` })).toEqual([
      'eventId must be a UUID',
    ]);
  });

  it('counts maximum lengths in code points, as the API and PostgreSQL do', () => {
    expect(violations(CalendarEventChanged, { ...valid(), title: '😀'.repeat(500) })).toEqual([]);
    expect(violations(CalendarEventChanged, { ...valid(), title: '😀'.repeat(501) })).toEqual([
      'title is longer than 500 characters',
    ]);
  });

  it('names nested problems by their path', () => {
    const Nested = define({
      schema: {
        id: { type: 'string' },
        items: {
          type: 'array',
          items: {
            type: 'object',
            additionalProperties: false,
            required: ['n'],
            properties: { n: { type: 'integer' } },
          },
        },
      },
    });
    expect(violations(Nested, { id: 'x', items: [{ n: 1 }, { n: 'two', m: 1 }, {}] }).sort()).toEqual(
      [
        'items[1].n must be an integer',
        'items[1].m is not part of the contract',
        'items[2].n is required',
      ].sort(),
    );
  });

  it('enforces the topic naming convention and version agreement', () => {
    expect(() => define({ topic: 'CalendarChanged' })).toThrow(/does not follow/);
    expect(() => define({ topic: 'a.b.c.v2' })).toThrow(/disagree/);
  });

  it('refuses a schema ajv refuses, an object that does not say whether it is open, a bad key or example', () => {
    expect(() => define({ schema: { id: { type: 'string', maxLenght: 3 } } })).toThrow(/maxLenght/);
    expect(() => define({ schema: { id: { type: 'enum', values: ['a'] } } })).toThrow();
    expect(() => define({ schema: { id: { type: 'string' }, o: { type: 'object' } } })).toThrow(
      /additionalProperties/,
    );
    expect(() => define({ key: 'n', schema: { id: { type: 'string' }, n: { type: 'integer' } } })).toThrow(
      /key n must be a string field/,
    );
    expect(() => define({ example: { id: 1 } })).toThrow(/example is invalid: id must be a string/);
  });

  it('infers the payload type from the schema', () => {
    type Eq<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
    const exact: Eq<
      EventOf<typeof CalendarEventChanged>,
      {
        eventId: string;
        accountId: string;
        productId: string;
        entityType: string;
        entityId: string;
        version: number;
        title: string | null;
        startsAt: string | null;
        endsAt: string | null;
        status: 'confirmed' | 'tentative' | 'cancelled';
        changedAt: string;
      }
    > = true;
    expect(exact).toBe(true);
    const payload = { ...valid(), status: 'confirmed' as const };
    expect(CalendarEventChanged.keyOf(payload)).toBe(payload.eventId);
  });

  it('registers every contract under its topic, each versioned', () => {
    for (const [topic, c] of CONTRACTS) {
      expect(c.topic).toBe(topic);
      expect(topic.endsWith(`.v${c.schemaVersion}`)).toBe(true);
    }
  });

  it('documents every registered contract: producers, an example, a description per field', () => {
    for (const c of CONTRACTS.values()) {
      expect([c.topic, c.description === c.topic]).toEqual([c.topic, false]);
      expect([c.topic, c.producers.length > 0, c.example !== undefined]).toEqual([c.topic, true, true]);
      for (const [field, s] of Object.entries(c.schema))
        expect([c.topic, field, typeof s.description]).toEqual([c.topic, field, 'string']);
    }
  });
});

describe('topics of several event types (families)', () => {
  const member = (type: string, extra: Record<string, unknown> = {}) =>
    defineEventType({
      topic: 'shop.order.events.v1',
      eventType: type,
      schemaVersion: 1,
      aggregateType: 'shop.order',
      key: 'orderId',
      description: `${type} happened.`,
      producers: ['shop'],
      schema: {
        eventType: { type: 'string', const: type, description: 'The type.' },
        orderId: { type: 'string', minLength: 1, description: 'The order.' },
        ...extra,
      },
    } as unknown as Parameters<typeof defineEventType>[0]);
  const Placed = defineEventType({
    topic: 'shop.order.events.v1',
    eventType: 'shop.order.placed',
    schemaVersion: 1,
    aggregateType: 'shop.order',
    key: 'orderId',
    description: 'An order was placed.',
    schema: {
      eventType: { type: 'string', const: 'shop.order.placed', description: 'The type.' },
      orderId: { type: 'string', minLength: 1, description: 'The order.' },
      amount: { type: 'integer', minimum: 1, description: 'Minor units.' },
    },
    example: { eventType: 'shop.order.placed', orderId: 'o-1', amount: 100 },
  });
  const Cancelled = defineEventType({
    topic: 'shop.order.events.v1',
    eventType: 'shop.order.cancelled',
    schemaVersion: 1,
    aggregateType: 'shop.order',
    key: 'orderId',
    description: 'An order was cancelled.',
    schema: {
      eventType: { type: 'string', const: 'shop.order.cancelled', description: 'The type.' },
      orderId: { type: 'string', minLength: 1, description: 'The order.' },
      reason: { type: 'string', enum: ['customer', 'stock'], description: 'Why.' },
    },
    example: { eventType: 'shop.order.cancelled', orderId: 'o-1', reason: 'stock' },
  });
  const Orders = defineEventFamily({
    topic: 'shop.order.events.v1',
    schemaVersion: 1,
    description: 'Everything that happens to an order.',
    members: [Placed, Cancelled],
  });

  it("validates a payload against the schema its eventType names, in that type's words", () => {
    expect(violations(Orders, Placed.example)).toEqual([]);
    expect(violations(Orders, Cancelled.example)).toEqual([]);
    expect(
      violations(Orders, { eventType: 'shop.order.placed', orderId: 'o-1', reason: 'stock' }).sort(),
    ).toEqual(['amount is required', 'reason is not part of the contract'].sort());
    expect(violations(Orders, { orderId: 'o-1' })).toEqual(['eventType is required']);
    expect(violations(Orders, { eventType: 'shop.order.lost', orderId: 'o-1' })).toEqual([
      'eventType must be one of shop.order.placed|shop.order.cancelled',
    ]);
    expect(violations(Orders, [])).toEqual(['payload must be an object']);
  });

  it('types its payload as the union of its members', () => {
    type Event = EventOf<typeof Orders>;
    const handle = (e: Event): string => (e.eventType === 'shop.order.placed' ? String(e.amount) : e.reason);
    expect(handle({ eventType: 'shop.order.cancelled', orderId: 'o-1', reason: 'customer' })).toBe(
      'customer',
    );
  });

  it('is written through its members only: the family has no single event type or key', () => {
    expect(Placed.keyOf({ eventType: 'shop.order.placed', orderId: 'o-9', amount: 1 })).toBe('o-9');
    expect(() => Orders.keyOf(Placed.example as EventOf<typeof Orders>)).toThrow(
      /write each with its own contract/,
    );
    expect(Orders.members?.map((m) => m.eventType)).toEqual(['shop.order.placed', 'shop.order.cancelled']);
  });

  it("publishes the union and each member's schema under its own name", () => {
    expect(Orders.payloadSchema.$id).toMatch(/\/shop\.order\.events\.v1\.schema\.json$/);
    expect(Placed.payloadSchema.$id).toMatch(/\/shop\.order\.placed\.v1\.schema\.json$/);
    expect(Orders.payloadSchema.oneOf?.map((b) => b.properties.eventType.const)).toEqual([
      'shop.order.placed',
      'shop.order.cancelled',
    ]);
    // What every member shares, with the type as an enum.
    expect(Object.keys(Orders.schema)).toEqual(['eventType', 'orderId']);
    expect(Orders.schema.eventType.enum).toEqual(['shop.order.placed', 'shop.order.cancelled']);
  });

  it('refuses a member that does not name its type, belongs elsewhere, or comes twice', () => {
    expect(() => member('shop.order.odd', { eventType: { type: 'string', description: 'x' } })).toThrow(
      /names its type in eventType/,
    );
    expect(() => member('ShopOrderOdd')).toThrow(/does not follow/);
    const family = (members: readonly Parameters<typeof defineEventFamily>[0]['members'][number][]) =>
      defineEventFamily({ topic: 'shop.order.events.v1', schemaVersion: 1, description: 'x', members });
    expect(() => family([])).toThrow(/at least one/);
    expect(() => family([Placed, Placed])).toThrow(/defined twice/);
    const elsewhere = defineEventType({
      topic: 'shop.invoice.events.v1',
      eventType: 'shop.invoice.sent',
      schemaVersion: 1,
      aggregateType: 'shop.invoice',
      key: 'id',
      schema: { eventType: { type: 'string', const: 'shop.invoice.sent' }, id: { type: 'string' } },
    });
    expect(() => family([Placed, elsewhere])).toThrow(/is defined for shop\.invoice\.events\.v1/);
  });
});
