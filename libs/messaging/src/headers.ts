import {
  INSTANT_PATTERN,
  JSON_SCHEMA_DIALECT,
  SCHEMA_BASE_URI,
  UUID_PATTERN,
  typeName,
  type FieldSchema,
  type JsonSchemaDocument,
} from './json-schema';

/** Kafka headers every published event carries (set by the outbox relay from the outbox row). */
export const EventHeader = {
  EventId: 'event-id',
  EventType: 'event-type',
  SchemaVersion: 'schema-version',
  AggregateType: 'aggregate-type',
  TenantId: 'tenant-id',
  RequestId: 'request-id',
  OccurredAt: 'occurred-at',
  ContentType: 'content-type',
  /** W3C Trace Context (https://www.w3.org/TR/trace-context/): the trace the event belongs to. */
  TraceParent: 'traceparent',
  TraceState: 'tracestate',
  /** On dead-lettered messages only. */
  OriginalTopic: 'original-topic',
  DeadLetterReason: 'dead-letter-reason',
  /** Set by consumers (libs/consumer) that dead-letter a message they received. */
  OriginalPartition: 'original-partition',
  OriginalOffset: 'original-offset',
  DeadLetterConsumer: 'dead-letter-consumer',
  /** Handler runs before giving up; 0 when the message was refused before the handler ran. */
  DeadLetterAttempts: 'dead-letter-attempts',
} as const;

export type EventHeaderName = (typeof EventHeader)[keyof typeof EventHeader];

/** Header values are UTF-8 strings on the wire; each schema here describes that string. */
const text = (description: string, extra: Partial<FieldSchema> = {}): FieldSchema => ({
  type: 'string',
  ...extra,
  description,
});
const digits = (description: string) => text(description, { pattern: '^[0-9]+$' });

/** What each header means: the schema files and the AsyncAPI document are written from this table. */
export const HEADER_DOCS: Readonly<Record<EventHeaderName, FieldSchema>> = {
  'event-id': text('Id of this event (UUID). Consumers dedupe on it: the same id is the same event.', {
    format: 'uuid',
    pattern: UUID_PATTERN,
  }),
  'event-type': text('What happened, without the version, e.g. `calendar.event.changed`.'),
  'schema-version': digits("Version of the payload's schema; equals the topic's `vN`."),
  'aggregate-type': text('Kind of aggregate whose id is the message key, e.g. `calendar.event`.'),
  'tenant-id': text('Account or organization the event belongs to; absent when it belongs to none.'),
  'request-id': text(
    'Id of the HTTP request that caused the event (its `X-Request-Id`), also when a consumer of an ' +
      'earlier event caused by it wrote this one; absent when no request did (periodic jobs, the admin CLI).',
  ),
  'occurred-at': text('When the event was written, ISO 8601 with offset (UTC).', {
    format: 'date-time',
    pattern: INSTANT_PATTERN,
  }),
  'content-type': text('Media type of the value.', { const: 'application/json' }),
  traceparent: text(
    'W3C Trace Context `traceparent` (version-traceid-parentid-flags) of the trace the event belongs to: ' +
      "the publishing relay's send, a child of the work that wrote the event (the HTTP request, or the " +
      'message a consumer handled). Continue it to join the trace. Present on every event written while ' +
      'tracing is on; absent when tracing was off where the event was written, or for events written ' +
      'outside any request or message (periodic jobs).',
    { pattern: '^[0-9a-f]{2}-[0-9a-f]{32}-[0-9a-f]{16}-[0-9a-f]{2}(-.*)?$' },
  ),
  tracestate: text('W3C Trace Context `tracestate` (vendor entries), when the trace has one.'),
  'original-topic': text('Topic the message was meant for (dead letters only).'),
  'dead-letter-reason': text('Why it was dead-lettered, for people; at most 500 characters.', {
    maxLength: 500,
  }),
  'original-partition': digits('Partition the consumer read it from (dead letters from a consumer only).'),
  'original-offset': digits('Offset it had there (dead letters from a consumer only).'),
  'dead-letter-consumer': text('Consumer group that gave up on it (dead letters from a consumer only).'),
  'dead-letter-attempts': digits(
    'Handler runs before the consumer gave up; 0 when it was refused before the handler ran (not JSON, ' +
      'contract violation). Dead letters from a consumer only.',
  ),
};

/**
 * Headers the relay always sets; `tenant-id`, `request-id`, `traceparent` and `tracestate` only when the
 * event has them.
 */
const ALWAYS: readonly EventHeaderName[] = [
  EventHeader.EventId,
  EventHeader.EventType,
  EventHeader.SchemaVersion,
  EventHeader.AggregateType,
  EventHeader.OccurredAt,
  EventHeader.ContentType,
];
const EVENT_HEADERS: readonly EventHeaderName[] = [
  EventHeader.EventId,
  EventHeader.EventType,
  EventHeader.SchemaVersion,
  EventHeader.AggregateType,
  EventHeader.TenantId,
  EventHeader.RequestId,
  EventHeader.OccurredAt,
  EventHeader.ContentType,
  EventHeader.TraceParent,
  EventHeader.TraceState,
];
const DEAD_LETTER_HEADERS: readonly EventHeaderName[] = [
  EventHeader.OriginalTopic,
  EventHeader.DeadLetterReason,
  EventHeader.OriginalPartition,
  EventHeader.OriginalOffset,
  EventHeader.DeadLetterConsumer,
  EventHeader.DeadLetterAttempts,
];

/**
 * Other headers (baggage, for instance) may be added by infrastructure, so the header maps are open;
 * every value is a string.
 */
const OTHER_HEADERS: FieldSchema = { type: 'string' };

/**
 * The headers of a contract's messages, with its event type, version and aggregate type fixed; on a
 * topic of several event types (`eventType` and `aggregateType` lists) each is one of those.
 */
export function eventHeadersSchema(c: {
  topic: string;
  eventType: string | readonly string[];
  schemaVersion: number;
  aggregateType: string | readonly string[];
  delivery?: 'outbox' | 'direct';
}): JsonSchemaDocument {
  const fixed: Partial<Record<EventHeaderName, string | readonly string[]>> = {
    [EventHeader.EventType]: c.eventType,
    [EventHeader.SchemaVersion]: String(c.schemaVersion),
    [EventHeader.AggregateType]: c.aggregateType,
  };
  const properties = Object.fromEntries(
    EVENT_HEADERS.map((h) => {
      const value = fixed[h];
      if (value === undefined) return [h, HEADER_DOCS[h]];
      return [
        h,
        typeof value === 'string' ? { ...HEADER_DOCS[h], const: value } : { ...HEADER_DOCS[h], enum: value },
      ];
    }),
  );
  return {
    $schema: JSON_SCHEMA_DIALECT,
    $id: `${SCHEMA_BASE_URI}${c.topic}.headers.schema.json`,
    title: `${typeName(c.topic)}Headers`,
    description: `Kafka headers of every message on ${c.topic}, set by ${
      c.delivery === 'direct' ? 'the app that sends it' : 'outbox-relay'
    }. Values are strings.`,
    type: 'object',
    properties,
    required: ALWAYS,
    additionalProperties: OTHER_HEADERS,
  };
}

/**
 * The headers of a dead letter: the original message's headers, copied as they were (a poison message
 * may lack any of them), plus where it came from and why it stopped.
 */
export function deadLetterHeadersSchema(topic: string): JsonSchemaDocument {
  const properties = Object.fromEntries(
    [...EVENT_HEADERS, ...DEAD_LETTER_HEADERS].map((h) => [
      h,
      // A copy is whatever the original carried, so only its meaning is documented, not its format.
      EVENT_HEADERS.includes(h)
        ? text(`Copied from the original message, when it had it. ${HEADER_DOCS[h].description}`)
        : HEADER_DOCS[h],
    ]),
  );
  return {
    $schema: JSON_SCHEMA_DIALECT,
    $id: `${SCHEMA_BASE_URI}${topic}.headers.schema.json`,
    title: `${typeName(topic)}Headers`,
    description:
      `Kafka headers of a dead letter on ${topic}: the original message's headers, untouched, plus ` +
      '`original-topic` and `dead-letter-reason` (always) and, when a consumer (libs/consumer) dead-lettered ' +
      'it, `original-partition`, `original-offset`, `dead-letter-consumer` and `dead-letter-attempts`.',
    type: 'object',
    properties,
    required: [EventHeader.OriginalTopic, EventHeader.DeadLetterReason],
    additionalProperties: OTHER_HEADERS,
  };
}
