import type { OnApplicationShutdown } from '@nestjs/common';
import { Kafka, logLevel, type Admin } from 'kafkajs';
import type { KafkaClientConfig } from '@platform/config';
import { kafkaClientOptions } from './kafka-client';

/**
 * Readiness probe of the broker: one metadata round-trip on a dedicated admin connection that does not
 * retry, so a probe answers within its timeout instead of hanging on kafkajs back-off.
 */
export class BrokerProbe implements OnApplicationShutdown {
  private admin?: Admin;
  private connected = false;

  constructor(private readonly cfg: KafkaClientConfig) {}

  async check(timeoutMs = 2000): Promise<void> {
    if (!this.admin) {
      const opts = kafkaClientOptions(this.cfg, `${this.cfg.KAFKA_CLIENT_ID}-probe`);
      this.admin = new Kafka({ ...opts, retry: { retries: 0 }, logLevel: logLevel.NOTHING }).admin();
    }
    const admin = this.admin;
    const work = (async () => {
      if (!this.connected) {
        await admin.connect();
        this.connected = true;
      }
      const cluster = await admin.describeCluster();
      if (!cluster.brokers.length) throw new Error('no brokers in cluster metadata');
    })();
    let timer: NodeJS.Timeout | undefined;
    try {
      await Promise.race([
        work,
        new Promise((_, reject) => {
          timer = setTimeout(() => reject(new Error(`broker did not answer in ${timeoutMs} ms`)), timeoutMs);
        }),
      ]);
    } catch (err) {
      this.connected = false;
      await admin.disconnect().catch(() => undefined);
      throw err;
    } finally {
      clearTimeout(timer);
    }
  }

  async onApplicationShutdown(): Promise<void> {
    await this.close();
  }

  async close(): Promise<void> {
    await this.admin?.disconnect().catch(() => undefined);
  }
}
