/**
 * The little harness these tests need, on the servers the Jest global setup starts. Not
 * `@platform/testing`: its walking-skeleton fixture uses this lib, and a lib's tests importing the
 * harness back would make the two projects depend on each other.
 */
import { randomBytes } from 'node:crypto';
import { Kafka, logLevel, type Consumer, type IHeaders } from 'kafkajs';

export { freshDatabase, type TestDatabase } from '@platform/dev-infra';

export function testKafka(brokers: string): Kafka {
  return new Kafka({
    clientId: `consumer-test-${randomBytes(3).toString('hex')}`,
    brokers: brokers.split(','),
    logLevel: logLevel.NOTHING,
    retry: { initialRetryTime: 100, retries: 8, maxRetryTime: 2000 },
  });
}

/** Polls until `check` returns something other than undefined, or fails after the time-out. */
export async function eventually<T>(check: () => Promise<T | undefined>, timeoutMs = 20000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await check();
    if (v !== undefined) return v;
    if (Date.now() > deadline) throw new Error(`condition not met in ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

export interface CollectedMessage {
  partition: number;
  key: string | null;
  /** The bytes as text: a dead-letter copy must be byte for byte the original. */
  value: string | null;
  headers: Record<string, string>;
}

function text(h: IHeaders | undefined): Record<string, string> {
  return Object.fromEntries(
    Object.entries(h ?? {}).map(([k, v]) => [k, String(Array.isArray(v) ? v[0] : v)]),
  );
}

/** Everything on one topic, read from the beginning by a group of its own. */
export class TopicReader {
  readonly messages: CollectedMessage[] = [];

  private constructor(private readonly consumer: Consumer) {}

  static async start(brokers: string, topic: string): Promise<TopicReader> {
    const consumer = testKafka(brokers).consumer({
      groupId: `reader-${randomBytes(6).toString('hex')}`,
      maxWaitTimeInMs: 100,
      sessionTimeout: 6000,
      heartbeatInterval: 1000,
    });
    const reader = new TopicReader(consumer);
    await consumer.connect();
    await consumer.subscribe({ topics: [topic], fromBeginning: true });
    await consumer.run({
      eachMessage: async ({ partition, message }) => {
        reader.messages.push({
          partition,
          key: message.key?.toString('utf8') ?? null,
          value: message.value?.toString('utf8') ?? null,
          headers: text(message.headers),
        });
      },
    });
    return reader;
  }

  async waitFor(predicate: (m: CollectedMessage) => boolean): Promise<CollectedMessage> {
    return eventually(async () => this.messages.find(predicate));
  }

  async stop(): Promise<void> {
    await this.consumer.disconnect().catch(() => undefined);
  }
}
