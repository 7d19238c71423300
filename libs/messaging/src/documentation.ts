import type { TopicContract } from './contract';
import { EventHeader, eventHeadersSchema } from './headers';
import { SCHEMA_BASE_URI, typeName, type FieldSchema, type JsonSchemaDocument } from './json-schema';
import { CONTRACTS } from './registry';
import { DeadLettered } from './topics/platform.topics';

/**
 * What the published documents say about one topic: docs/contracts/schemas/<topic>.schema.json (the
 * payload), <topic>.headers.schema.json and the topic's channel in docs/asyncapi/platform.asyncapi.json.
 * scripts/gen-contracts.ts writes them; this lib's tests check the files against it.
 */
export interface TopicDocumentation {
  readonly topic: string;
  /** `CalendarEventChangedV1`: message and class name. */
  readonly name: string;
  readonly description: string;
  /**
   * Null for the dead-letter topic, which carries other topics' events; on a topic of several event
   * types, the family's name (each member has its own).
   */
  readonly eventType: string | null;
  /** The message key. */
  readonly key: FieldSchema;
  readonly payloadSchema: { readonly $id: string; readonly title: string; readonly description: string };
  readonly headersSchema: JsonSchemaDocument;
  /** App names of libs/registry, or EVERY_KAFKA_APP / EVERY_CONSUMER. */
  readonly producers: readonly string[];
  readonly consumers: readonly string[];
  /** How producers' messages reach Kafka; `direct` for the dead-letter topic (each producer sends it). */
  readonly delivery: 'outbox' | 'direct';
  /** A message as it appears on the topic; valid against both schemas (the tests check). */
  readonly example: MessageExample | null;
  /**
   * On a topic that carries several event types: one message per type, each with its own payload
   * schema file (`<eventType>.v<N>.schema.json`); empty on a topic of one event type.
   */
  readonly members: readonly MessageDocumentation[];
}

export interface MessageExample {
  readonly key: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly payload: unknown;
}

/** One event type of a topic that carries several: its own message in the AsyncAPI document. */
export interface MessageDocumentation {
  /** `LendingBureauLoanDisbursedV1`: message and class name. */
  readonly name: string;
  readonly eventType: string;
  readonly aggregateType: string;
  readonly description: string;
  /** The message key (its own key field). */
  readonly key: FieldSchema;
  /** Published as `<eventType>.v<N>.schema.json`. */
  readonly payloadSchema: JsonSchemaDocument;
  readonly example: MessageExample | null;
}

/** Fixed example values, so the generated documents are the same on every run. */
const EXAMPLE_EVENT_ID = '0f8e7c1a-3b2d-4e5f-8a9b-1c2d3e4f5a6b';
const EXAMPLE_REQUEST_ID = 'b1946ac9-2a4e-4f4b-9c62-5e3a7d8f0c21';
const EXAMPLE_OCCURRED_AT = '2026-11-20T09:15:02.125Z';

function exampleHeaders(c: TopicContract<unknown>): Record<string, string> {
  return {
    [EventHeader.EventId]: EXAMPLE_EVENT_ID,
    [EventHeader.EventType]: c.eventType,
    [EventHeader.SchemaVersion]: String(c.schemaVersion),
    [EventHeader.AggregateType]: c.aggregateType,
    [EventHeader.RequestId]: EXAMPLE_REQUEST_ID,
    [EventHeader.OccurredAt]: EXAMPLE_OCCURRED_AT,
    [EventHeader.ContentType]: 'application/json',
  };
}

function keyDocumentation(c: TopicContract<unknown>): FieldSchema {
  const keyField = c.schema[c.key];
  return {
    type: 'string',
    ...(keyField.format ? { format: keyField.format } : {}),
    ...(keyField.pattern ? { pattern: keyField.pattern } : {}),
    ...(keyField.maxLength ? { maxLength: keyField.maxLength } : {}),
    description: `The payload's \`${c.key}\` (the ${c.aggregateType} id): one aggregate's messages share a partition, in order.`,
  };
}

function exampleOf(c: TopicContract<unknown>): MessageExample | null {
  return c.example === undefined
    ? null
    : { key: c.keyOf(c.example), headers: exampleHeaders(c), payload: c.example };
}

function documentMember(c: TopicContract<unknown>): MessageDocumentation {
  return {
    name: typeName(c.payloadSchema.$id.slice(SCHEMA_BASE_URI.length).replace(/\.schema\.json$/, '')),
    eventType: c.eventType,
    aggregateType: c.aggregateType,
    description: c.description,
    key: keyDocumentation(c),
    payloadSchema: c.payloadSchema,
    example: exampleOf(c),
  };
}

function documentContract(c: TopicContract<unknown>): TopicDocumentation {
  const common = {
    topic: c.topic,
    name: typeName(c.topic),
    description: c.description,
    eventType: c.eventType,
    payloadSchema: c.payloadSchema,
    producers: c.producers,
    consumers: c.consumers,
    delivery: c.delivery,
  };
  if (!c.members)
    return {
      ...common,
      key: keyDocumentation(c),
      headersSchema: eventHeadersSchema(c),
      example: exampleOf(c),
      members: [],
    };
  const members = c.members.map(documentMember);
  const keys = [...new Set(c.members.map((m) => `\`${m.key}\` (the ${m.aggregateType} id)`))];
  return {
    ...common,
    key: {
      type: 'string',
      description: `Per event type: ${keys.join(', ')}; one aggregate's messages share a partition, in order.`,
    },
    headersSchema: eventHeadersSchema({
      ...c,
      eventType: members.map((m) => m.eventType),
      aggregateType: [...new Set(members.map((m) => m.aggregateType))],
    }),
    example: members[0].example,
    members,
  };
}

/**
 * The dead-letter example: an event the relay's re-check refused (a row written around the writer),
 * with its original key, headers and value.
 */
function deadLetterExample(original: TopicDocumentation): TopicDocumentation['example'] {
  if (!original.example) return null;
  const reason = 'contract violation: status must be one of confirmed|tentative|cancelled';
  return {
    key: original.example.key,
    headers: {
      ...original.example.headers,
      [EventHeader.OriginalTopic]: original.topic,
      [EventHeader.DeadLetterReason]: reason,
    },
    payload: { ...(original.example.payload as object), status: 'postponed' },
  };
}

/** Every topic of the platform: the contracts, then the dead-letter topic. */
export function topicDocumentation(): TopicDocumentation[] {
  const contracts = [...CONTRACTS.values()].map(documentContract);
  return [
    ...contracts,
    {
      topic: DeadLettered.topic,
      name: typeName(DeadLettered.topic),
      description: DeadLettered.description,
      eventType: null,
      key: { type: ['string', 'null'], description: DeadLettered.keyDescription },
      payloadSchema: DeadLettered.payloadSchema,
      headersSchema: DeadLettered.headersSchema,
      producers: DeadLettered.producers,
      consumers: [],
      delivery: 'direct',
      example: deadLetterExample(contracts[0]),
      members: [],
    },
  ];
}
