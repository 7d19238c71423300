import type { TopicContract } from './contract';
import { EventHeader, eventHeadersSchema } from './headers';
import { typeName, type FieldSchema, type JsonSchemaDocument } from './json-schema';
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
  /** Null for the dead-letter topic, which carries other topics' events. */
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
  readonly example: {
    readonly key: string;
    readonly headers: Readonly<Record<string, string>>;
    readonly payload: unknown;
  } | null;
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

function documentContract(c: TopicContract<unknown>): TopicDocumentation {
  const keyField = c.schema[c.key];
  return {
    topic: c.topic,
    name: typeName(c.topic),
    description: c.description,
    eventType: c.eventType,
    key: {
      type: 'string',
      ...(keyField.format ? { format: keyField.format } : {}),
      ...(keyField.pattern ? { pattern: keyField.pattern } : {}),
      ...(keyField.maxLength ? { maxLength: keyField.maxLength } : {}),
      description: `The payload's \`${c.key}\` (the ${c.aggregateType} id): one aggregate's messages share a partition, in order.`,
    },
    payloadSchema: c.payloadSchema,
    headersSchema: eventHeadersSchema(c),
    producers: c.producers,
    consumers: c.consumers,
    delivery: c.delivery,
    example:
      c.example === undefined
        ? null
        : { key: c.keyOf(c.example), headers: exampleHeaders(c), payload: c.example },
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
    },
  ];
}
