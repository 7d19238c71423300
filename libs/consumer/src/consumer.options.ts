import type { KafkaClientConfig } from '@platform/config';
import type { Queryable } from '@platform/outbox';
import type { DeliveryReport } from './delivery-processor';
import type { RetryPolicy } from './retry-policy';

/** Runs `work` in one database transaction and returns its result (commit), or rethrows (rollback). */
export type TransactionRunnerOf<Tx extends Queryable> = <R>(work: (tx: Tx) => Promise<R>) => Promise<R>;

export interface ConsumerModuleOptions<Tx extends Queryable = Queryable> {
  /** The app's typed config: brokers, client id, fetch wait, session time-out, instance id. */
  kafka: KafkaClientConfig;
  /** Schema that holds the service's `inbox` table (created by its migrations, `outboxTablesDdl`). */
  schema: string;
  /** E.g. `(work) => inTransaction(dataSource, work)`, or `poolTransaction(pool)` without an ORM. */
  transaction: TransactionRunnerOf<Tx>;
  /** Defaults for every contract; a registration may override them. */
  retry?: Partial<RetryPolicy>;
  /**
   * Partitions a replica works on at once (kafkajs `partitionsConsumedConcurrently`); order within a
   * partition holds either way. Default 1.
   */
  partitionsConcurrently?: number;
  /** Defaults to the platform's `DEAD_LETTER_TOPIC`, which the relay uses too. */
  deadLetterTopic?: string;
  /** Called once per delivery after its transaction committed (logging, tests). */
  onOutcome?: (report: DeliveryReport) => void;
}

export const CONSUMER_OPTIONS = Symbol('CONSUMER_OPTIONS');
