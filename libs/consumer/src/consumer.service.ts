import {
  Inject,
  Injectable,
  Logger,
  type BeforeApplicationShutdown,
  type OnApplicationBootstrap,
} from '@nestjs/common';
import { Partitioners, type Producer } from 'kafkajs';
import { createKafka } from '@platform/kafka';
import { DEAD_LETTER_TOPIC } from '@platform/messaging';
import { Inbox } from '@platform/outbox';
import type { ConsumerRegistration, ContractHandler } from './contract-handler';
import { ConsumerMetrics } from './consumer.metrics';
import { CONSUMER_OPTIONS, type ConsumerModuleOptions } from './consumer.options';
import type { DeadLetterMessage } from './dead-letter';
import { DeliveryProcessor, type Route } from './delivery-processor';
import { GroupConsumer, type GroupStatus } from './group.consumer';
import { retryPolicy } from './retry-policy';

/** Kafka's own limit on group ids is loose; this keeps them readable in metrics and the inbox. */
const GROUP_ID = /^[a-z][a-z0-9._-]{0,199}$/;

/**
 * Runs every registered consumer group of the app: starts them once the app has bootstrapped, and
 * stops them before the app's shutdown hooks close the database, so an in-flight message still finishes
 * its transaction and commits its offset.
 */
@Injectable()
export class ConsumerService implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger('Consumer');
  private readonly routes = new Map<string, Map<string, Route>>();
  private readonly groups: GroupConsumer[] = [];
  private readonly stopping = new AbortController();
  private readonly deadLetterTopic: string;
  private producer?: Producer;
  private producerConnected = false;
  private started = false;

  constructor(
    @Inject(CONSUMER_OPTIONS) private readonly opts: ConsumerModuleOptions,
    readonly metrics: ConsumerMetrics,
  ) {
    this.deadLetterTopic = opts.deadLetterTopic ?? DEAD_LETTER_TOPIC;
    // Fail at boot, not on the first message.
    retryPolicy(opts.retry);
    const concurrency = opts.partitionsConcurrently ?? 1;
    if (!Number.isInteger(concurrency) || concurrency < 1)
      throw new Error('partitionsConcurrently must be >= 1');
  }

  register<T>(reg: ConsumerRegistration<T>, handler: ContractHandler<T, never>): void {
    if (this.started) throw new Error('consumers are registered while the app is created, not after');
    if (!GROUP_ID.test(reg.group)) throw new Error(`consumer group "${reg.group}" must match ${GROUP_ID}`);
    if (typeof handler?.handle !== 'function') throw new Error(`${reg.handler.name} has no handle()`);
    const topic = reg.contract.topic;
    if (topic === this.deadLetterTopic) throw new Error(`${reg.group} cannot consume the dead-letter topic`);
    const routes = this.routes.get(reg.group) ?? new Map<string, Route>();
    if (routes.has(topic)) throw new Error(`group ${reg.group} registers ${topic} twice`);
    routes.set(topic, {
      contract: reg.contract as Route['contract'],
      handler: handler as Route['handler'],
      retry: retryPolicy(this.opts.retry, reg.retry),
    });
    this.routes.set(reg.group, routes);
    this.metrics.track(reg.group, topic);
  }

  onApplicationBootstrap(): void {
    this.started = true;
    if (this.routes.size === 0) return;
    const cfg = this.opts.kafka;
    const kafka = createKafka(cfg, `${cfg.KAFKA_CLIENT_ID}-consumer-${cfg.INSTANCE_ID}`);
    this.producer = kafka.producer({
      allowAutoTopicCreation: true,
      createPartitioner: Partitioners.DefaultPartitioner,
      retry: { initialRetryTime: 100, retries: 3, maxRetryTime: 2000 },
    });
    this.producer.on(this.producer.events.DISCONNECT, () => (this.producerConnected = false));
    const log = (level: 'log' | 'warn' | 'error', msg: string) => this.logger[level](msg);
    for (const [group, routes] of this.routes) {
      const processor = new DeliveryProcessor({
        group,
        routes,
        // The group is the consumer's name in the inbox: replicas share it, other groups do not.
        inbox: new Inbox(this.opts.schema, group, this.opts.transaction),
        deadLetter: (m) => this.publishDeadLetter(m),
        metrics: this.metrics,
        onOutcome: this.opts.onOutcome,
        log,
      });
      const consumer = new GroupConsumer(
        kafka,
        cfg,
        group,
        [...routes.keys()],
        processor,
        this.stopping.signal,
        log,
        this.opts.partitionsConcurrently,
      );
      this.groups.push(consumer);
      consumer.start();
      this.logger.log(`${group} consumes ${[...routes.keys()].join(', ')}`);
    }
  }

  /** Resolves once every group has joined (and got its partitions) at least once. */
  async whenJoined(): Promise<void> {
    await Promise.all(this.groups.map((g) => g.joined));
  }

  status(): GroupStatus[] {
    return this.groups.map((g) => g.status());
  }

  async beforeApplicationShutdown(): Promise<void> {
    await this.stop();
  }

  async stop(): Promise<void> {
    this.stopping.abort();
    await Promise.all(this.groups.map((g) => g.stop()));
    await this.producer?.disconnect().catch(() => undefined);
  }

  private async publishDeadLetter(message: DeadLetterMessage): Promise<void> {
    const producer = this.producer as Producer;
    if (!this.producerConnected) {
      await producer.connect();
      this.producerConnected = true;
    }
    await producer.send({ topic: this.deadLetterTopic, messages: [message], acks: -1 });
  }
}
