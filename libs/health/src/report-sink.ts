import { Kafka, Partitioners, logLevel, type Producer } from 'kafkajs';
import type { KafkaClientConfig } from '@platform/config';
import { kafkaClientOptions } from '@platform/kafka';

/** One Kafka message: the reporter builds it, a sink sends it. */
export interface ReportMessage {
  topic: string;
  key: string;
  value: string;
  headers: Record<string, string>;
}

/** Where health reports go: Kafka in the apps, an array in unit tests. */
export interface ReportSink {
  /** Resolves once the broker acknowledged the message; rejects otherwise (the reporter drops it). */
  send(message: ReportMessage): Promise<void>;
  close(): Promise<void>;
}

/** Longest a report may wait for the broker; a newer report replaces it anyway. */
const SEND_TIMEOUT_MS = 5000;

function within<T>(work: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    work,
    new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`${what} took longer than ${ms} ms`)), ms);
      timer.unref();
    }),
  ]).finally(() => clearTimeout(timer));
}

/**
 * A producer of its own, apart from any the app has: a heartbeat is not business data (no outbox), and
 * its failures must stay its own. Few retries and no kafkajs logging: the reporter logs once per outage
 * and the next report is never more than one interval away, so waiting out a long back-off buys nothing.
 * After a failed send the producer is dropped and the next report connects again.
 */
export class KafkaReportSink implements ReportSink {
  private producer?: Producer;
  private connecting?: Promise<Producer>;
  private closed = false;

  constructor(private readonly cfg: KafkaClientConfig) {}

  async send(message: ReportMessage): Promise<void> {
    if (this.closed) throw new Error('the health reporter is stopped');
    const producer = await this.connect();
    try {
      await within(
        producer.send({
          topic: message.topic,
          acks: -1,
          timeout: SEND_TIMEOUT_MS,
          messages: [{ key: message.key, value: message.value, headers: message.headers }],
        }),
        SEND_TIMEOUT_MS + 1000,
        'publishing a health report',
      );
    } catch (err) {
      await this.reset();
      throw err;
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.reset();
  }

  private connect(): Promise<Producer> {
    if (this.producer) return Promise.resolve(this.producer);
    this.connecting ??= (async () => {
      const kafka = new Kafka({
        ...kafkaClientOptions(this.cfg, `${this.cfg.KAFKA_CLIENT_ID}-health`),
        retry: { initialRetryTime: 100, retries: 1, maxRetryTime: 1000 },
        logLevel: logLevel.NOTHING,
      });
      const producer = kafka.producer({
        allowAutoTopicCreation: true,
        createPartitioner: Partitioners.DefaultPartitioner,
        retry: { retries: 1 },
      });
      try {
        await within(producer.connect(), SEND_TIMEOUT_MS, 'connecting to Kafka');
      } catch (err) {
        await producer.disconnect().catch(() => undefined);
        throw err;
      }
      if (this.closed) {
        await producer.disconnect().catch(() => undefined);
        throw new Error('the health reporter is stopped');
      }
      this.producer = producer;
      return producer;
    })().finally(() => (this.connecting = undefined));
    return this.connecting;
  }

  private async reset(): Promise<void> {
    const producer = this.producer;
    this.producer = undefined;
    if (producer) await within(producer.disconnect(), 2000, 'disconnecting').catch(() => undefined);
  }
}
