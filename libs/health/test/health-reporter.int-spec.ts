import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { Module, type DynamicModule, type INestApplication } from '@nestjs/common';
import { Kafka, logLevel, type Consumer } from 'kafkajs';
import { KafkaClientConfig, TypedConfigModule } from '@platform/config';
import { KafkaMockCluster } from '@platform/dev-infra';
import { EnvelopeModule, createHttpApp } from '@platform/envelope';
import { PlatformI18nModule } from '@platform/i18n';
import { ServiceHealthReported, violations } from '@platform/messaging';
import { HealthModule, HealthReporter, type HealthCheckDefinition } from '../src';

class ReporterTestConfig extends KafkaClientConfig {}

/*
 * A few lines of harness instead of @platform/testing: a data-access lib may not depend on the
 * testing lib (nx boundaries), and this is all these tests need.
 */
interface ReceivedMessage {
  key: string | null;
  value: unknown;
  headers: Record<string, string>;
}

class TopicCollector {
  readonly messages: ReceivedMessage[] = [];
  private constructor(private readonly consumer: Consumer) {}

  static async start(
    topics: string[],
    brokers = process.env.KAFKA_BROKERS as string,
  ): Promise<TopicCollector> {
    const kafka = new Kafka({
      clientId: 'health-test',
      brokers: brokers.split(','),
      logLevel: logLevel.NOTHING,
    });
    const consumer = kafka.consumer({
      groupId: `health-test-${randomUUID()}`,
      maxWaitTimeInMs: 100,
      sessionTimeout: 6000,
    });
    const collector = new TopicCollector(consumer);
    await consumer.connect();
    await consumer.subscribe({ topics, fromBeginning: true });
    await consumer.run({
      eachMessage: async ({ message }) => {
        collector.messages.push({
          key: message.key?.toString() ?? null,
          value: JSON.parse(message.value?.toString() ?? 'null'),
          headers: Object.fromEntries(
            Object.entries(message.headers ?? {}).map(([k, v]) => [k, String(Array.isArray(v) ? v[0] : v)]),
          ),
        });
      },
    });
    return collector;
  }

  async waitFor(predicate: (m: ReceivedMessage) => boolean, count = 1, timeoutMs = 20000) {
    return eventually(async () => {
      const found = this.messages.filter(predicate);
      return found.length >= count ? found : undefined;
    }, timeoutMs);
  }

  async stop(): Promise<void> {
    await this.consumer.disconnect();
  }
}

async function eventually<T>(check: () => Promise<T | undefined>, timeoutMs = 15000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await check();
    if (v !== undefined) return v;
    if (Date.now() > deadline) throw new Error(`condition not met in ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

async function listen(app: INestApplication): Promise<string> {
  await app.listen(0, '127.0.0.1');
  return `http://127.0.0.1:${(app.getHttpServer().address() as AddressInfo).port}`;
}

/** A readiness check the test turns on and off: the app's "database". */
const database = { up: true };
const switchableCheck: HealthCheckDefinition = {
  name: 'database',
  useFactory: () => async () => {
    if (!database.up) throw new Error('connection terminated unexpectedly');
  },
};

@Module({})
class ReportingAppModule {
  static register(env: NodeJS.ProcessEnv): DynamicModule {
    return {
      module: ReportingAppModule,
      imports: [
        TypedConfigModule.forRoot(ReporterTestConfig, env),
        PlatformI18nModule.forRoot(),
        EnvelopeModule,
        HealthModule.forRoot('lending', [switchableCheck], [], { config: ReporterTestConfig }),
      ],
    };
  }
}

type Report = { service: string; instance: string; status: 'up' | 'down'; checks: Record<string, unknown> };
const report = (m: ReceivedMessage) => m.value as Report;

async function startApp(instance: string, extra: Record<string, string>): Promise<INestApplication> {
  const env = {
    NODE_ENV: 'test',
    KAFKA_BROKERS: process.env.KAFKA_BROKERS,
    INSTANCE_ID: instance,
    HEALTH_HEARTBEAT_MS: '500',
    HEALTH_CHECK_MS: '100',
    ...extra,
  };
  return createHttpApp(ReportingAppModule.register(env), false);
}

describe('health reports on Kafka (Kafka-protocol broker)', () => {
  afterEach(() => {
    database.up = true;
  });

  describe('with the broker up', () => {
    let collector: TopicCollector;
    let app: INestApplication;
    const instance = `lending-${randomUUID().slice(0, 8)}`;
    const mine = (m: ReceivedMessage) => report(m).instance === instance;

    beforeAll(async () => {
      collector = await TopicCollector.start([ServiceHealthReported.topic]);
      app = await startApp(instance, {});
      await listen(app);
    });

    afterAll(async () => {
      await app?.close();
      await collector?.stop();
    });

    it('publishes at start and then on every heartbeat, keyed by service, valid per contract', async () => {
      const [first] = await collector.waitFor(mine);
      expect(first.key).toBe('lending');
      expect(violations(ServiceHealthReported, first.value)).toEqual([]);
      expect(first.headers).toMatchObject({
        'event-type': 'platform.service.health-reported',
        'schema-version': '1',
        'aggregate-type': 'platform.service',
        'content-type': 'application/json',
      });
      expect(report(first)).toMatchObject({ service: 'lending', status: 'up' });
      const beats = await collector.waitFor(mine, 3, 5000);
      expect(new Set(beats.map((m) => m.headers['event-id'])).size).toBe(beats.length);
    });

    it('publishes a readiness change at once, naming the failing check, and the recovery', async () => {
      await collector.waitFor(mine);
      const changedAt = Date.now();
      database.up = false;
      const [down] = await collector.waitFor((m) => mine(m) && report(m).status === 'down', 1, 5000);
      // Well before the next heartbeat would have carried it (checks run every 100 ms).
      expect(Date.now() - changedAt).toBeLessThan(2000);
      expect(report(down).checks).toEqual({
        database: {
          status: 'down',
          latencyMs: expect.any(Number),
          error: 'connection terminated unexpectedly',
        },
      });
      const downAt = collector.messages.indexOf(down);
      database.up = true;
      await eventually(
        async () =>
          collector.messages.slice(downAt + 1).some((m) => mine(m) && report(m).status === 'up') || undefined,
      );
    });
  });

  describe('with the broker down', () => {
    let cluster: KafkaMockCluster;
    let app: INestApplication;
    let base: string;

    beforeAll(async () => {
      cluster = KafkaMockCluster.start(1);
      cluster.createTopic(ServiceHealthReported.topic, 3);
      app = await startApp(`lending-${randomUUID().slice(0, 8)}`, {
        KAFKA_BROKERS: cluster.brokers,
        HEALTH_HEARTBEAT_MS: '200',
      });
      base = await listen(app);
    });

    afterAll(async () => {
      await app?.close();
      cluster?.setUp();
    });

    it('keeps serving, drops and counts reports, and publishes again once the broker is back', async () => {
      const reporter = app.get(HealthReporter);
      await eventually(async () => (reporter.status().published > 0 ? true : undefined));
      cluster.setDown();
      await eventually(async () => (reporter.status().outage ? true : undefined), 20000);

      // Requests are not held up by the reporter: probes answer at once while reports are dropped.
      for (let i = 0; i < 20; i++) {
        const started = Date.now();
        const live = await fetch(`${base}/health/live`);
        expect(live.status).toBe(200);
        const ready = await fetch(`${base}/health/ready`);
        expect(ready.status).toBe(200);
        expect(Date.now() - started).toBeLessThan(500);
      }
      const during = reporter.status();
      expect(during.dropped).toBeGreaterThan(0);

      cluster.setUp();
      const published = during.published;
      await eventually(
        async () => (reporter.status().published > published && !reporter.status().outage ? true : undefined),
        30000,
      );
    }, 60000);

    it('closes promptly even while the broker is unreachable', async () => {
      cluster.setDown();
      await new Promise((r) => setTimeout(r, 500));
      const started = Date.now();
      await app.close();
      expect(Date.now() - started).toBeLessThan(10000);
    }, 20000);
  });
});
