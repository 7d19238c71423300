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
  if (!TOPIC_NAME.test(d.topic))
    throw new Error(`topic ${d.topic} does not follow <domain>.<entity>.<event>.v<N>`);
  const version = Number(d.topic.slice(d.topic.lastIndexOf('.v') + 2));
  if (version !== d.schemaVersion)
    throw new Error(`topic ${d.topic} and schemaVersion ${d.schemaVersion} disagree`);
  const keySchema = d.schema[d.key] as FieldSchema | undefined;
  if (keySchema?.type !== 'string') throw new Error(`${d.topic}: key ${d.key} must be a string field`);
  for (const [name, field] of Object.entries(d.schema)) assertExplicitObjects(`${d.topic}: ${name}`, field);

  const description = d.description ?? d.topic;
  const payloadSchema: JsonSchemaDocument = {
    $schema: JSON_SCHEMA_DIALECT,
    $id: `${SCHEMA_BASE_URI}${d.topic}.schema.json`,
    title: typeName(d.topic),
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
    if (problems.length) throw new Error(`${d.topic}: the example is invalid: ${problems.join('; ')}`);
  }
  return contract;
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
  return problemsOf(validatorOf(contract as TopicContract<unknown>), payload);
}

export function assertValid<T>(contract: TopicContract<T>, payload: unknown): T {
  const problems = violations(contract, payload);
  if (problems.length) throw new ContractViolation(contract.topic, problems);
  return payload as T;
}
