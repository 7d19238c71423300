import {
  JSON_SCHEMA_DIALECT,
  SCHEMA_BASE_URI,
  typeName,
  type FieldSchema,
  type Fields,
  type JsonSchemaDocument,
  type PayloadOf,
} from './json-schema';
import { compilePayloadSchema, problemsOf, type PayloadValidator } from './validator';

/**
 * Who writes a topic, for the AsyncAPI document: app names of libs/registry (checked there by
 * scripts/gen-contracts.ts, since this lib may import nothing) or one of these rules.
 */
export const EVERY_KAFKA_APP = 'every-kafka-app';
/** Every app that consumes a topic through libs/consumer (it dead-letters what it cannot handle). */
export const EVERY_CONSUMER = 'every-consumer';
export type Party = string;

/**
 * How a topic's messages reach Kafka: `outbox` (business events, written in the transaction of the
 * change and published by outbox-relay) or `direct` (operational signals such as health heartbeats, which
 * the producing app sends itself: losing one is harmless, the next one follows).
 */
export type Delivery = 'outbox' | 'direct';

/**
 * A Kafka topic contract: `<domain>.<entity>.<event>.v<N>`, the payload field whose value is the message
 * key (the aggregate id), the schema version carried in the `schema-version` header, and the payload
 * schema. A breaking change is a new contract with a new topic version; old consumers keep reading the
 * old topic.
 */
export interface TopicContract<T> {
  readonly topic: string;
  readonly eventType: string;
  readonly schemaVersion: number;
  readonly aggregateType: string;
  /** What happened, for the people reading the schema files and the AsyncAPI document. */
  readonly description: string;
  /** The payload field holding the aggregate id, which is the message key. */
  readonly key: string;
  /** The payload's fields, each a JSON Schema. */
  readonly schema: Fields;
  /** The published JSON Schema document (docs/contracts/schemas/<topic>.schema.json). */
  readonly payloadSchema: JsonSchemaDocument;
  /** Apps that write it to their outbox (outbox-relay publishes it), or send it themselves (`direct`). */
  readonly producers: readonly Party[];
  readonly delivery: Delivery;
  /** Apps that subscribe to it besides those libs/registry lists under `consumes`. */
  readonly consumers: readonly Party[];
  /** A valid payload: published as the schema's example and checked against it. */
  readonly example?: T;
  /** Names the aggregate id (the message key) of a payload. */
  readonly keyOf: (payload: T) => string;
  /**
   * Only on a topic that carries several event types (`defineEventFamily`): the contract of each, by
   * which its events are written. The topic's own contract validates what is read from it.
   */
  readonly members?: readonly TopicContract<unknown>[];
  /** Brand so that `T` is part of the type. */
  readonly __payload?: T;
}

/** The payload type of a contract: `type CalendarEventChangedV1 = EventOf<typeof CalendarEventChanged>`. */
export type EventOf<C> = C extends TopicContract<infer T> ? T : never;

/** Payload fields whose value is a string: candidates for the message key. */
type StringFields<T> = { [K in keyof T]-?: T[K] extends string ? K : never }[keyof T] & string;

export interface ContractDefinition<F extends Fields> {
  readonly topic: string;
  readonly eventType: string;
  readonly schemaVersion: number;
  readonly aggregateType: string;
  readonly description?: string;
  readonly key: StringFields<PayloadOf<F>>;
  readonly schema: F;
  readonly producers?: readonly Party[];
  readonly consumers?: readonly Party[];
  /** `outbox` when absent. */
  readonly delivery?: Delivery;
  readonly example?: NoInfer<PayloadOf<F>>;
}

export class ContractViolation extends Error {
  constructor(
    readonly topic: string,
    readonly problems: string[],
  ) {
    super(`payload violates ${topic}: ${problems.join('; ')}`);
    this.name = 'ContractViolation';
  }
}

const TOPIC_NAME = /^[a-z][a-z0-9-]*\.[a-z][a-z0-9-]*\.[a-z][a-z0-9-]*\.v[1-9][0-9]*$/;

/** Compiled once per contract; a contract built without `defineContract` is compiled on first use. */
const validators = new WeakMap<TopicContract<unknown>, PayloadValidator>();

/**
 * Defines a contract from its JSON Schema fields; the payload type is inferred from them, so the
 * schema is the one definition. Fails at definition time on a wrong name, a version that disagrees
 * with the name, a schema ajv refuses, an object that does not say whether it is open, a key that is
 * not a string field, or an example that does not validate.
 */
export function defineContract<const F extends Fields>(
  d: ContractDefinition<F>,
): TopicContract<PayloadOf<F>> {
  assertTopicName(d.topic, d.schemaVersion);
  return buildContract(d, d.topic);
}

/** The payload field that names the event type on a topic that carries several. */
export const EVENT_TYPE_FIELD = 'eventType';
const EVENT_TYPE_NAME = /^[a-z][a-z0-9-]*\.[a-z][a-z0-9-]*\.[a-z][a-z0-9-]*$/;

/**
 * Defines one event type of a topic that carries several (see `defineEventFamily`): a contract like
 * `defineContract`'s, whose payload names its type in an `eventType` field (`const`), and whose schema
 * is published under its own name, `<eventType>.v<N>.schema.json`, since the topic's file is the union.
 */
export function defineEventType<const F extends Fields>(
  d: ContractDefinition<F>,
): TopicContract<PayloadOf<F>> {
  assertTopicName(d.topic, d.schemaVersion);
  if (!EVENT_TYPE_NAME.test(d.eventType))
    throw new Error(`event type ${d.eventType} does not follow <domain>.<entity>.<event>`);
  if (d.schema[EVENT_TYPE_FIELD]?.const !== d.eventType)
    throw new Error(
      `${d.eventType}: the payload names its type in ${EVENT_TYPE_FIELD} (const "${d.eventType}")`,
    );
  return buildContract(d, `${d.eventType}.v${d.schemaVersion}`);
}

function assertTopicName(topic: string, schemaVersion: number): void {
  if (!TOPIC_NAME.test(topic))
    throw new Error(`topic ${topic} does not follow <domain>.<entity>.<event>.v<N>`);
  const version = Number(topic.slice(topic.lastIndexOf('.v') + 2));
  if (version !== schemaVersion)
    throw new Error(`topic ${topic} and schemaVersion ${schemaVersion} disagree`);
}

/** `name` is the schema's file name without `.schema.json`: the topic, or a family member's type. */
function buildContract<F extends Fields>(
  d: ContractDefinition<F>,
  name: string,
): TopicContract<PayloadOf<F>> {
  const keySchema = d.schema[d.key] as FieldSchema | undefined;
  if (keySchema?.type !== 'string') throw new Error(`${name}: key ${d.key} must be a string field`);
  for (const [field, s] of Object.entries(d.schema)) assertExplicitObjects(`${name}: ${field}`, s);

  const description = d.description ?? name;
  const payloadSchema: JsonSchemaDocument = {
    $schema: JSON_SCHEMA_DIALECT,
    $id: `${SCHEMA_BASE_URI}${name}.schema.json`,
    title: typeName(name),
    description,
    type: 'object',
    properties: d.schema,
    required: Object.keys(d.schema),
    additionalProperties: false,
    ...(d.example === undefined ? {} : { examples: [d.example] }),
  };
  const key = d.key;
  const contract: TopicContract<PayloadOf<F>> = {
    topic: d.topic,
    eventType: d.eventType,
    schemaVersion: d.schemaVersion,
    aggregateType: d.aggregateType,
    description,
    key,
    schema: d.schema,
    payloadSchema,
    producers: d.producers ?? [],
    consumers: d.consumers ?? [],
    delivery: d.delivery ?? 'outbox',
    example: d.example,
    keyOf: (payload) => payload[key] as string,
  };
  const validate = compilePayloadSchema(payloadSchema);
  validators.set(contract as TopicContract<unknown>, validate);
  if (d.example !== undefined) {
    const problems = problemsOf(validate, d.example);
    if (problems.length) throw new Error(`${name}: the example is invalid: ${problems.join('; ')}`);
  }
  return contract;
}

/**
 * What `defineEventFamily` needs of each member: a contract made by `defineEventType` (the payload
 * type is left to `EventOf`, since contracts are invariant in it).
 */
export interface FamilyMember {
  readonly topic: string;
  readonly eventType: string;
  readonly schemaVersion: number;
  readonly aggregateType: string;
  readonly description: string;
  readonly key: string;
  readonly schema: Fields;
  readonly payloadSchema: JsonSchemaDocument;
  readonly delivery: Delivery;
  readonly example?: unknown;
}

export interface EventFamilyDefinition<M extends readonly FamilyMember[]> {
  readonly topic: string;
  readonly schemaVersion: number;
  readonly description: string;
  /** The event types the topic carries, each defined by `defineEventType` on this topic and version. */
  readonly members: M;
  readonly producers?: readonly Party[];
  readonly consumers?: readonly Party[];
}

/**
 * A topic that carries several event types, so that a consumer sees one aggregate's events in order
 * across types (one key, one partition). Each type keeps its own contract, with its key, aggregate type
 * and schema; producers write with those (the family's `keyOf` throws, so an event cannot go out with
 * the family's name as its `event-type` header). The family's contract is what the relay and consumers
 * validate with: the payload's `eventType` picks the member, whose schema decides. Its published schema
 * is the union (`oneOf`, each branch fixing `eventType` with a `const`), which accepts exactly that.
 */
export function defineEventFamily<const M extends readonly FamilyMember[]>(
  d: EventFamilyDefinition<M>,
): TopicContract<EventOf<M[number]>> {
  assertTopicName(d.topic, d.schemaVersion);
  const members = d.members as readonly FamilyMember[];
  if (!members.length) throw new Error(`${d.topic}: a family has at least one event type`);
  const seen = new Set<string>();
  for (const m of members) {
    if (m.topic !== d.topic || m.schemaVersion !== d.schemaVersion)
      throw new Error(`${d.topic}: ${m.eventType} is defined for ${m.topic} (version ${m.schemaVersion})`);
    if (m.schema[EVENT_TYPE_FIELD]?.const !== m.eventType)
      throw new Error(`${d.topic}: ${m.eventType} does not name its type in ${EVENT_TYPE_FIELD}`);
    if (m.delivery !== 'outbox')
      throw new Error(`${d.topic}: ${m.eventType} must be delivered by the outbox`);
    if (seen.has(m.eventType)) throw new Error(`${d.topic}: ${m.eventType} is defined twice`);
    seen.add(m.eventType);
  }
  const eventTypes = members.map((m) => m.eventType);
  const typeField: FieldSchema = {
    type: 'string',
    enum: eventTypes,
    description: 'The event type: it names the schema the rest of the payload follows (one per type).',
  };
  const description = d.description;
  const payloadSchema: JsonSchemaDocument = {
    $schema: JSON_SCHEMA_DIALECT,
    $id: `${SCHEMA_BASE_URI}${d.topic}.schema.json`,
    title: typeName(d.topic),
    description,
    type: 'object',
    properties: { [EVENT_TYPE_FIELD]: typeField },
    required: [EVENT_TYPE_FIELD],
    // Each branch closes the object; this level only says which branch applies.
    additionalProperties: true,
    oneOf: members.map((m) => ({
      title: m.payloadSchema.title,
      description: m.description,
      type: 'object' as const,
      properties: m.payloadSchema.properties,
      required: m.payloadSchema.required,
      additionalProperties: m.payloadSchema.additionalProperties,
    })),
    ...(members[0].example === undefined ? {} : { examples: [members[0].example] }),
  };
  const distinct = (values: string[]) => [...new Set(values)].join('|');
  const name = d.topic.slice(0, d.topic.lastIndexOf('.v'));
  const family: TopicContract<EventOf<M[number]>> = {
    topic: d.topic,
    eventType: name,
    schemaVersion: d.schemaVersion,
    aggregateType: distinct(members.map((m) => m.aggregateType)),
    description,
    key: distinct(members.map((m) => m.key)),
    schema: { [EVENT_TYPE_FIELD]: typeField, ...commonFields(members) },
    payloadSchema,
    producers: d.producers ?? [],
    consumers: d.consumers ?? [],
    delivery: 'outbox',
    example: members[0].example as EventOf<M[number]> | undefined,
    keyOf: () => {
      throw new Error(
        `${d.topic} carries ${members.length} event types: write each with its own contract ` +
          `(e.g. the one of ${members[0].eventType}), not the topic's`,
      );
    },
    members: members as unknown as readonly TopicContract<unknown>[],
  };
  // ajv must accept the published union too, though reads dispatch on the type (clearer problems).
  compilePayloadSchema(payloadSchema);
  return family;
}

/** The fields every member has, with the same schema: what the family's payloads share. */
function commonFields(members: readonly FamilyMember[]): Fields {
  const [first, ...rest] = members;
  const same = (a: FieldSchema, b: FieldSchema | undefined) => JSON.stringify(a) === JSON.stringify(b);
  return Object.fromEntries(
    Object.entries(first.schema).filter(
      ([field, s]) => field !== EVENT_TYPE_FIELD && rest.every((m) => same(s, m.schema[field])),
    ),
  );
}

function assertExplicitObjects(path: string, s: FieldSchema): void {
  const types: readonly string[] = typeof s.type === 'string' ? [s.type] : s.type;
  if (types.includes('object') && s.additionalProperties === undefined)
    throw new Error(`${path}: say whether the object admits unknown keys (additionalProperties)`);
  for (const [name, p] of Object.entries(s.properties ?? {})) assertExplicitObjects(`${path}.${name}`, p);
  if (s.items) assertExplicitObjects(`${path}[]`, s.items);
  if (typeof s.additionalProperties === 'object') assertExplicitObjects(`${path}.*`, s.additionalProperties);
}

function validatorOf(contract: TopicContract<unknown>): PayloadValidator {
  let validate = validators.get(contract);
  if (!validate) {
    validate = compilePayloadSchema(contract.payloadSchema);
    validators.set(contract, validate);
  }
  return validate;
}

/** Returns the problems of a payload against its contract; empty when valid. */
export function violations<T>(contract: TopicContract<T>, payload: unknown): string[] {
  if (typeof payload !== 'object' || payload === null || Array.isArray(payload))
    return ['payload must be an object'];
  if (contract.members) return familyViolations(contract.members, payload as Record<string, unknown>);
  return problemsOf(validatorOf(contract as TopicContract<unknown>), payload);
}

/** The member named by `eventType` decides, so the problems are that type's, not every branch's. */
function familyViolations(members: readonly TopicContract<unknown>[], payload: Record<string, unknown>) {
  const type = payload[EVENT_TYPE_FIELD];
  if (type === undefined) return [`${EVENT_TYPE_FIELD} is required`];
  const member = members.find((m) => m.eventType === type);
  if (!member) return [`${EVENT_TYPE_FIELD} must be one of ${members.map((m) => m.eventType).join('|')}`];
  return violations(member, payload);
}

export function assertValid<T>(contract: TopicContract<T>, payload: unknown): T {
  const problems = violations(contract, payload);
  if (problems.length) throw new ContractViolation(contract.topic, problems);
  return payload as T;
}
