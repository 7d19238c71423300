import { randomUUID } from 'node:crypto';
import { Kafka, logLevel, type Consumer, type IHeaders } from 'kafkajs';

export interface ReceivedMessage {
  topic: string;
  partition: number;
  offset: string;
  key: string | null;
  value: unknown;
  headers: Record<string, string>;
}

export function testKafka(brokers = process.env.KAFKA_BROKERS): Kafka {
  if (!brokers)
    throw new Error('KAFKA_BROKERS is not set: run integration tests through scripts/jest/int.config.js');
  return new Kafka({
    clientId: `test-${randomUUID().slice(0, 8)}`,
    brokers: brokers.split(','),
    logLevel: logLevel.NOTHING,
    retry: { initialRetryTime: 100, retries: 8, maxRetryTime: 2000 },
  });
}

function decodeHeaders(h: IHeaders | undefined): Record<string, string> {
  return Object.fromEntries(
    Object.entries(h ?? {}).map(([k, v]) => [k, Array.isArray(v) ? String(v[0]) : String(v)]),
  );
}

/**
 * Subscribes a fresh consumer group to topics and collects what arrives, with a helper that waits for
 * messages matching a predicate.
 */
export class TopicCollector {
  readonly messages: ReceivedMessage[] = [];
  private waiters: (() => void)[] = [];

  private constructor(private readonly consumer: Consumer) {}

  static async start(topics: string[], brokers?: string): Promise<TopicCollector> {
    const consumer = testKafka(brokers).consumer({
      groupId: `collector-${randomUUID()}`,
      maxWaitTimeInMs: 100,
      sessionTimeout: 6000,
      heartbeatInterval: 1000,
    });
    const collector = new TopicCollector(consumer);
    await consumer.connect();
    await consumer.subscribe({ topics, fromBeginning: true });
    await consumer.run({
      eachMessage: async ({ topic, partition, message }) => {
        const raw = message.value?.toString('utf8') ?? null;
        let value: unknown = raw;
        try {
          value = raw === null ? null : JSON.parse(raw);
        } catch {
          /* not JSON: keep the text */
        }
        collector.messages.push({
          topic,
          partition,
          offset: message.offset,
          key: message.key?.toString('utf8') ?? null,
          value,
          headers: decodeHeaders(message.headers),
        });
        collector.waiters.splice(0).forEach((w) => w());
      },
    });
    return collector;
  }

  async waitFor(
    predicate: (m: ReceivedMessage) => boolean,
    count = 1,
    timeoutMs = 20000,
  ): Promise<ReceivedMessage[]> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = this.messages.filter(predicate);
      if (found.length >= count) return found;
      const left = deadline - Date.now();
      if (left <= 0) {
        throw new Error(
          `timed out waiting for ${count} message(s); got ${found.length} of ${this.messages.length} total`,
        );
      }
      await new Promise<void>((resolve) => {
        const t = setTimeout(resolve, Math.min(left, 250));
        this.waiters.push(() => {
          clearTimeout(t);
          resolve();
        });
      });
    }
  }

  async stop(): Promise<void> {
    await this.consumer.disconnect().catch(() => undefined);
  }
}
