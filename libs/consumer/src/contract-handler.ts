import type { Type } from '@nestjs/common';
import type { TopicContract } from '@platform/messaging';
import type { Queryable } from '@platform/outbox';
import type { RetryPolicy } from './retry-policy';

/** What a handler learns about the delivery besides the validated event. */
export interface ConsumerContext<Tx extends Queryable = Queryable> {
  /**
   * The transaction the inbox row is written in: every write of the handler goes through it, so the
   * effect and the dedupe row commit together or not at all. Its type is what the app's transaction
   * runner hands out (a TypeORM `EntityManager`, a `pg` client).
   */
  tx: Tx;
  eventId: string;
  tenantId: string | null;
  requestId: string | null;
  occurredAt: string | null;
  topic: string;
  partition: number;
  offset: string;
  key: string | null;
  headers: Readonly<Record<string, string>>;
  /** 1 on the first run; higher when the message is retried after a failure. */
  attempt: number;
}

/**
 * An injectable class that applies one contract's events. `handle` is declared as a property so that a
 * handler written for another contract's payload does not type-check against this one (method
 * parameters would be compared bivariantly).
 */
export interface ContractHandler<T, Tx extends Queryable = Queryable> {
  readonly handle: (event: T, ctx: ConsumerContext<Tx>) => Promise<void>;
}

export interface ConsumerRegistration<T> {
  contract: TopicContract<T>;
  /**
   * Kafka consumer group, also the consumer's name in the inbox: replicas of a service share it; two
   * services (or two independent effects) use two groups. Convention: `<service>.<purpose>`.
   */
  group: string;
  /** Any transaction type: the module's runner decides it, and Nest's DI cannot check the pairing. */
  handler: Type<ContractHandler<T, never>>;
  /** Overrides the module's retry policy for this contract. */
  retry?: Partial<RetryPolicy>;
}
