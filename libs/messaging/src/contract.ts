import { validateObject, type ObjectSchema } from './schema';

/**
 * A Kafka topic contract: `<domain>.<entity>.<event>.v<N>`, the aggregate whose id is the message key,
 * the schema version carried in the `schema-version` header, and the payload schema. A breaking change
 * is a new contract with a new topic version; old consumers keep reading the old topic.
 */
export interface TopicContract<T> {
  readonly topic: string;
  readonly eventType: string;
  readonly schemaVersion: number;
  readonly aggregateType: string;
  readonly schema: ObjectSchema;
  /** Names the aggregate id (the message key) of a payload. */
  readonly keyOf: (payload: T) => string;
  /** Brand so that `T` is part of the type. */
  readonly __payload?: T;
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

export function defineContract<T>(c: Omit<TopicContract<T>, '__payload'>): TopicContract<T> {
  if (!TOPIC_NAME.test(c.topic))
    throw new Error(`topic ${c.topic} does not follow <domain>.<entity>.<event>.v<N>`);
  const version = Number(c.topic.slice(c.topic.lastIndexOf('.v') + 2));
  if (version !== c.schemaVersion)
    throw new Error(`topic ${c.topic} and schemaVersion ${c.schemaVersion} disagree`);
  return c;
}

/** Returns the problems of a payload against its contract; empty when valid. */
export function violations<T>(contract: TopicContract<T>, payload: unknown): string[] {
  if (typeof payload !== 'object' || payload === null || Array.isArray(payload))
    return ['payload must be an object'];
  return validateObject(payload as Record<string, unknown>, contract.schema);
}

export function assertValid<T>(contract: TopicContract<T>, payload: unknown): T {
  const problems = violations(contract, payload);
  if (problems.length) throw new ContractViolation(contract.topic, problems);
  return payload as T;
}
