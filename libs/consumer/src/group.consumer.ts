import { setTimeout as sleep } from 'node:timers/promises';
import type { Consumer, Kafka } from 'kafkajs';
import type { KafkaClientConfig } from '@platform/config';
import { trackConsumerLag } from './consumer-lag';
import type { DeliveryProcessor } from './delivery-processor';
import { backoffDelay } from './retry-policy';

export type GroupState = 'starting' | 'joined' | 'restarting' | 'stopped';

export interface GroupStatus {
  group: string;
  topics: string[];
  state: GroupState;
  /** Partitions this replica holds, per topic (after the last join). */
  assignment: Record<string, number[]>;
}

/**
 * One kafkajs consumer for one consumer group: every replica of a service joins the same group and
 * Kafka spreads the partitions among them. Offsets are committed one message at a time, right after the
 * delivery returned (autoCommit with a threshold of 1, which kafkajs runs even while it stops), so a
 * graceful stop finishes the in-flight message, commits it and leaves the group.
 */
/** How long `stop` waits for a start in progress (a group join) before it lets the app go on. */
const STOP_WAIT_MS = 5_000;

export class GroupConsumer {
  private consumer?: Consumer;
  private state: GroupState = 'starting';
  private assignment: Record<string, number[]> = {};
  private starting?: Promise<void>;
  private joinedOnce?: () => void;
  readonly joined: Promise<void>;

  constructor(
    private readonly kafka: Kafka,
    private readonly cfg: KafkaClientConfig,
    readonly group: string,
    readonly topics: string[],
    private readonly processor: DeliveryProcessor,
    private readonly signal: AbortSignal,
    private readonly log: (level: 'log' | 'warn' | 'error', msg: string) => void,
    private readonly partitionsConcurrently = 1,
  ) {
    this.joined = new Promise((resolve) => (this.joinedOnce = resolve));
  }

  status(): GroupStatus {
    return { group: this.group, topics: [...this.topics], state: this.state, assignment: this.assignment };
  }

  /** Starts in the background and keeps trying while the broker is away: an app boots without Kafka. */
  start(): void {
    this.starting ??= this.keepStarting();
  }

  /** Call after aborting the signal. */
  async stop(): Promise<void> {
    this.state = 'stopped';
    // A start in progress (connecting, joining the group) ends first: it sees the aborted signal and
    // disconnects by itself. Disconnecting under a join crashed the consumer instead, and kafkajs logged
    // a page of ERROR lines ("Crash: Closed connection", "Restarting the consumer") for a normal stop.
    // A start stuck in a join (a rebalance among many members can take the broker's rebalance timeout,
    // a minute) must not hold the app's shutdown past a pod's grace period: at most STOP_WAIT_MS.
    await Promise.race([this.starting, sleep(STOP_WAIT_MS, undefined, { ref: false })]);
    // kafkajs waits for the in-flight delivery (which the aborted signal cuts short if it is waiting),
    // commits it and leaves the group.
    await this.disconnectWithin();
  }

  /** Leaving a group mid-rebalance can take the broker's rebalance timeout: bounded by STOP_WAIT_MS. */
  private async disconnectWithin(): Promise<void> {
    const leaving = this.consumer?.disconnect().catch(() => undefined);
    await Promise.race([leaving, sleep(STOP_WAIT_MS, undefined, { ref: false })]);
  }

  private async keepStarting(): Promise<void> {
    for (let n = 1; !this.signal.aborted; n++) {
      try {
        await this.runOnce();
        return;
      } catch (err) {
        await this.consumer?.disconnect().catch(() => undefined);
        if (this.signal.aborted) return;
        const delay = backoffDelay(Math.min(n, 8), { baseMs: 500, maxMs: 30_000 });
        this.log('warn', `${this.group}: cannot start (${(err as Error).message}), retrying in ${delay} ms`);
        await sleep(delay, undefined, { signal: this.signal }).catch(() => undefined);
      }
    }
  }

  private async runOnce(): Promise<void> {
    const consumer = this.kafka.consumer({
      groupId: this.group,
      maxWaitTimeInMs: this.cfg.KAFKA_CONSUMER_MAX_WAIT_MS,
      sessionTimeout: this.cfg.KAFKA_SESSION_TIMEOUT_MS,
      heartbeatInterval: Math.max(500, Math.floor(this.cfg.KAFKA_SESSION_TIMEOUT_MS / 5)),
      allowAutoTopicCreation: true,
      // kafkajs restarts a consumer after a retriable crash by a timer that a disconnect made earlier
      // does not clear: never once the app is stopping (it came back after the app had closed).
      retry: { retries: 5, restartOnFailure: async () => !this.signal.aborted },
    });
    this.consumer = consumer;
    trackConsumerLag(consumer, this.group);
    consumer.on(consumer.events.GROUP_JOIN, (e) => {
      this.assignment = e.payload.memberAssignment;
      this.state = 'joined';
      this.joinedOnce?.();
    });
    consumer.on(consumer.events.CRASH, (e) => {
      // Stopping: a crash of the leaving consumer is the stop itself, not news.
      if (this.signal.aborted) return;
      this.log('error', `${this.group}: consumer crashed: ${e.payload.error.message}`);
      // kafkajs restarts on retriable crashes itself; anything else would leave the group silently dead.
      if (!e.payload.restart) {
        this.state = 'restarting';
        this.starting = this.keepStarting();
      }
    });
    await consumer.connect();
    await consumer.subscribe({ topics: this.topics, fromBeginning: true });
    if (this.signal.aborted) throw new Error('stopped while starting');
    await consumer.run({
      autoCommit: true,
      autoCommitThreshold: 1,
      partitionsConsumedConcurrently: this.partitionsConcurrently,
      eachMessage: async ({ topic, partition, message, heartbeat }) => {
        await this.processor.process(
          {
            topic,
            partition,
            offset: message.offset,
            key: message.key,
            value: message.value,
            headers: message.headers,
          },
          { heartbeat, signal: this.signal },
        );
      },
    });
    if (this.signal.aborted) await consumer.disconnect();
  }
}
