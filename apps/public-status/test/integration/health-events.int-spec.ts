import { randomUUID } from 'node:crypto';
import type { INestApplication } from '@nestjs/common';
import { Kafka, logLevel, type Producer } from 'kafkajs';
import { KafkaClientConfig, loadConfig } from '@platform/config';
import { ConsumerMetrics, ConsumerService } from '@platform/consumer';
import { KafkaMockCluster } from '@platform/dev-infra';
import { HealthReporter, KafkaReportSink, Readiness } from '@platform/health';
import { DEAD_LETTER_TOPIC, EventHeader, ServiceHealthReported } from '@platform/messaging';
import { createTestDatabase, eventually, serviceEnv, withClient } from '@platform/testing';
import { createPublicStatusApp } from '../../src/bootstrap';
import { HealthEventsRepository } from '../../src/health-events/health-events.unscoped.repository';
import { PLATFORM_HEALTH_GROUP } from '../../src/health-events/health-events.module';
import { HealthSilenceService } from '../../src/health-events/health-silence.service';
import type { PlatformServiceHealth } from '../../src/health-events/health-state';
import { PlatformHealthService } from '../../src/health-events/platform-health.service';

const HEARTBEAT_MS = 300;
const SILENCE_INTERVALS = 3;

/**
 * public-status consuming the platform's health reports: two replicas on one database and one broker
 * (a mock cluster of this file's own, so other test files' apps, which report too, stay out of it).
 */
describe('platform health in public-status (real PostgreSQL, Kafka-protocol broker)', () => {
  let cluster: KafkaMockCluster;
  let db: Awaited<ReturnType<typeof createTestDatabase>>;
  let replicas: INestApplication[] = [];
  let producer: Producer;
  const reporters: HealthReporter[] = [];
  const healthy: Record<string, boolean> = {};

  /** A platform app as far as its health goes: the same reporter every app runs. */
  function startReporter(service: string, instance: string): HealthReporter {
    healthy[instance] = true;
    const cfg = loadConfig(KafkaClientConfig, { KAFKA_BROKERS: cluster.brokers });
    const readiness = new Readiness(service, [
      {
        name: 'database',
        run: async () => {
          if (!healthy[instance]) throw new Error('connection terminated unexpectedly');
        },
      },
    ]);
    const reporter = new HealthReporter(readiness, new KafkaReportSink(cfg), {
      instance,
      heartbeatMs: HEARTBEAT_MS,
      checkMs: 100,
      basis: 'ready',
    });
    reporter.start();
    reporters.push(reporter);
    return reporter;
  }

  const health = (replica = 0) => replicas[replica].get(PlatformHealthService).platformHealth();
  const serviceHealth = async (service: string, replica = 0): Promise<PlatformServiceHealth> =>
    (await health(replica)).find((s) => s.service === service) as PlatformServiceHealth;
  const transitions = (service: string) =>
    withClient(db.url, async (c) =>
      (
        await c.query(
          `SELECT state, reason, failing_checks FROM public_status.health_transitions
            WHERE service = $1 ORDER BY at, id`,
          [service],
        )
      ).rows.map((r: { state: string; reason: string; failing_checks: string[] }) => ({
        state: r.state,
        reason: r.reason,
        failing: r.failing_checks,
      })),
    );

  beforeAll(async () => {
    cluster = KafkaMockCluster.start(1);
    cluster.createTopic(ServiceHealthReported.topic, 3);
    cluster.createTopic(DEAD_LETTER_TOPIC, 1);
    db = await createTestDatabase('ps_health');
    for (const id of ['ps-a', 'ps-b']) {
      const env = serviceEnv(db.url, {
        KAFKA_BROKERS: cluster.brokers,
        INSTANCE_ID: id,
        HEALTH_HEARTBEAT_MS: String(HEARTBEAT_MS),
        HEALTH_CHECK_MS: '100',
        HEALTH_SILENCE_INTERVALS: String(SILENCE_INTERVALS),
        HEALTH_SILENCE_CHECK_MS: '100',
      });
      const app = await createPublicStatusApp(env, false);
      await app.init();
      replicas.push(app);
    }
    await Promise.all(replicas.map((r) => r.get(ConsumerService).whenJoined()));
    producer = new Kafka({
      clientId: 'ps-health-test',
      brokers: [cluster.brokers],
      logLevel: logLevel.NOTHING,
    }).producer();
    await producer.connect();
  }, 60000);

  afterAll(async () => {
    await Promise.all(reporters.map((r) => r.stop()));
    await producer?.disconnect();
    await Promise.all(replicas.map((r) => r.close()));
    replicas = [];
    await db?.drop();
  });

  it('records an app at its first heartbeat and each readiness change, naming the failing checks', async () => {
    startReporter('lending', 'lending-1');
    const up = await eventually(async () => {
      const s = await serviceHealth('lending');
      return s.state === 'up' ? s : undefined;
    });
    expect(up.reason).toBe('reported');
    expect(up.instances).toEqual([
      expect.objectContaining({ instance: 'lending-1', ready: true, failingChecks: [] }),
    ]);

    healthy['lending-1'] = false;
    const down = await eventually(async () => {
      const s = await serviceHealth('lending', 1);
      return s.state === 'down' ? s : undefined;
    }, 5000);
    expect(down.reason).toBe('reported');
    expect(down.instances[0]).toMatchObject({ ready: false, failingChecks: ['database'] });

    healthy['lending-1'] = true;
    await eventually(async () => ((await serviceHealth('lending')).state === 'up' ? true : undefined), 5000);
    expect(await transitions('lending')).toEqual([
      { state: 'up', reason: 'reported', failing: [] },
      { state: 'down', reason: 'reported', failing: ['database'] },
      { state: 'up', reason: 'reported', failing: [] },
    ]);
  });

  it('applies a redelivered report once (inbox dedupe)', async () => {
    const eventId = randomUUID();
    const payload = {
      service: 'verification',
      instance: 'verification-1',
      status: 'down',
      checks: { broker: { status: 'down', latencyMs: 2000, error: 'broker did not answer' } },
      reportedAt: new Date().toISOString(),
    };
    const message = {
      key: 'verification',
      value: JSON.stringify(payload),
      headers: {
        [EventHeader.EventId]: eventId,
        [EventHeader.EventType]: ServiceHealthReported.eventType,
        [EventHeader.SchemaVersion]: '1',
        [EventHeader.AggregateType]: ServiceHealthReported.aggregateType,
        [EventHeader.OccurredAt]: payload.reportedAt,
        [EventHeader.ContentType]: 'application/json',
      },
    };
    const duplicates = () =>
      replicas
        .flatMap((r) => r.get(ConsumerMetrics).snapshot())
        .filter((s) => s.group === PLATFORM_HEALTH_GROUP)
        .reduce((n, s) => n + s.duplicates, 0);
    const before = duplicates();
    await producer.send({ topic: ServiceHealthReported.topic, messages: [message], acks: -1 });
    await producer.send({ topic: ServiceHealthReported.topic, messages: [message], acks: -1 });
    await eventually(async () => (duplicates() > before ? true : undefined));
    const inbox = await withClient(
      db.url,
      async (c) =>
        (await c.query(`SELECT count(*)::int AS n FROM public_status.inbox WHERE event_id = $1`, [eventId]))
          .rows[0].n,
    );
    expect(inbox).toBe(1);
    expect(await transitions('verification')).toEqual([
      { state: 'down', reason: 'reported', failing: ['broker'] },
    ]);
  });

  it('marks a silent service down after N heartbeats, exactly once with two replicas checking', async () => {
    const reporter = startReporter('calendar', 'calendar-1');
    await eventually(async () => ((await serviceHealth('calendar')).state === 'up' ? true : undefined));
    await reporter.stop();
    const stoppedAt = Date.now();

    // Both replicas' silence checks run every 100 ms; hammer the statement from both at once as well.
    const silent = await eventually(async () => {
      const rows = await transitions('calendar');
      return rows.some((r) => r.reason === 'silent') ? rows : undefined;
    }, 10000);
    expect(Date.now() - stoppedAt).toBeGreaterThanOrEqual(HEARTBEAT_MS * SILENCE_INTERVALS - HEARTBEAT_MS);
    const hammered = await Promise.all(
      Array.from({ length: 10 }, (_, i) => replicas[i % 2].get(HealthSilenceService).runOnce()),
    );
    expect(hammered.flat()).not.toContain('calendar');
    await new Promise((r) => setTimeout(r, 1000));
    expect(await transitions('calendar')).toEqual([
      { state: 'up', reason: 'reported', failing: [] },
      { state: 'down', reason: 'silent', failing: [] },
    ]);
    expect(silent).toHaveLength(2);
    const calendar = await serviceHealth('calendar', 1);
    expect(calendar).toMatchObject({ state: 'down', reason: 'silent', instances: [] });
  });

  it('flips a silent service once when many replicas race on the same statement', async () => {
    startReporter('outbox-relay', 'relay-1');
    await eventually(async () => ((await serviceHealth('outbox-relay')).state === 'up' ? true : undefined));
    // Stop the heartbeat and the replicas' own timers' chance to win: call the statement directly from
    // both replicas, twenty times at once, right when the window has passed.
    await reporters[reporters.length - 1].stop();
    const repositories = replicas.map((r) => r.get(HealthEventsRepository));
    await new Promise((r) => setTimeout(r, HEARTBEAT_MS * SILENCE_INTERVALS + 50));
    const window = { heartbeatMs: HEARTBEAT_MS, silenceMs: HEARTBEAT_MS * SILENCE_INTERVALS };
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) => repositories[i % 2].markSilent(window)),
    );
    const flips = results.flat().filter((s) => s === 'outbox-relay').length;
    const recorded = (await transitions('outbox-relay')).filter((t) => t.reason === 'silent');
    // The replicas' own timers may have won the race; either way exactly one row exists.
    expect(flips).toBeLessThanOrEqual(1);
    expect(recorded).toHaveLength(1);
  });

  it('brings a silent service back up on its next report', async () => {
    startReporter('calendar', 'calendar-2');
    await eventually(async () => ((await serviceHealth('calendar')).state === 'up' ? true : undefined));
    expect((await transitions('calendar')).map((t) => `${t.state}:${t.reason}`)).toEqual([
      'up:reported',
      'down:silent',
      'up:reported',
    ]);
  });

  it('lists every app of the registry, down while it never reported', async () => {
    const all = await health();
    expect(all.map((s) => s.service)).toEqual([
      'gateway',
      'calendar',
      'public-status',
      'lending',
      'verification',
      'outbox-relay',
    ]);
    expect(all.find((s) => s.service === 'gateway')).toEqual({
      service: 'gateway',
      state: 'down',
      since: null,
      reason: 'never-reported',
      instances: [],
    });
    // public-status's own replicas report like every app (a replica starved of CPU on a loaded machine
    // may miss its window and come back with its next heartbeat).
    const own = await eventually(async () => {
      const s = (await health()).find((x) => x.service === 'public-status') as PlatformServiceHealth;
      return s.instances.length === 2 ? s : undefined;
    });
    expect(own.state).toBe('up');
    expect(own.instances.map((i) => i.instance).sort()).toEqual(['ps-a', 'ps-b']);
  });
});
