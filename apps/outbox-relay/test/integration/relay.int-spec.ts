import { randomUUID } from 'node:crypto';
import type { INestApplication } from '@nestjs/common';
import { Kafka, logLevel, type Producer } from 'kafkajs';
import { Pool } from 'pg';
import { KafkaMockCluster } from '@platform/dev-infra';
import { CalendarEventChanged, DEAD_LETTER_TOPIC, type CalendarEventChangedV1 } from '@platform/messaging';
import { OutboxRelay, OutboxWriter, outboxTablesDdl, type RelayOptions } from '@platform/outbox';
import {
  TopicCollector,
  createTestDatabase,
  eventually,
  listen,
  request,
  serviceEnv,
} from '@platform/testing';
import { createRelayApp } from '../../src/bootstrap';

function changed(aggregate: string, version: number): CalendarEventChangedV1 {
  return {
    eventId: aggregate,
    accountId: 'acme',
    productId: 'crm',
    entityType: 'deal',
    entityId: `deal-${aggregate.slice(0, 8)}`,
    version,
    title: `v${version}`,
    startsAt: null,
    endsAt: null,
    status: 'confirmed',
    changedAt: new Date().toISOString(),
  };
}

const baseOptions = (owner: string): RelayOptions => ({
  owner,
  batchSize: 50,
  leaseMs: 30000,
  maxFailures: 3,
  backoffBaseMs: 1,
  backoffMaxMs: 5,
});

function producerFor(brokers: string, retries = 5): Producer {
  return new Kafka({
    clientId: `relay-test-${randomUUID().slice(0, 6)}`,
    brokers: brokers.split(','),
    logLevel: logLevel.NOTHING,
  }).producer({ maxInFlightRequests: 1, retry: { initialRetryTime: 100, retries, maxRetryTime: 1000 } });
}

describe('outbox relay (real PostgreSQL, Kafka-protocol broker)', () => {
  let db: Awaited<ReturnType<typeof createTestDatabase>>;
  let pool: Pool;
  let producer: Producer;
  let collector: TopicCollector;
  const brokers = process.env.KAFKA_BROKERS as string;

  async function freshSchema(): Promise<{ schema: string; writer: OutboxWriter }> {
    const schema = `relay_${randomUUID().replace(/-/g, '').slice(0, 10)}`;
    await pool.query(`CREATE SCHEMA ${schema}`);
    for (const ddl of outboxTablesDdl(schema)) await pool.query(ddl);
    return { schema, writer: new OutboxWriter(schema) };
  }

  async function write(writer: OutboxWriter, payloads: CalendarEventChangedV1[]): Promise<string[]> {
    const client = await pool.connect();
    try {
      await client.query('BEGIN');
      const ids: string[] = [];
      for (const p of payloads)
        ids.push(
          await writer.append(client, CalendarEventChanged, p, { tenantId: 'acme', requestId: 'req-1' }),
        );
      await client.query('COMMIT');
      return ids;
    } finally {
      client.release();
    }
  }

  async function drain(relays: OutboxRelay[], schema: string): Promise<void> {
    await eventually(
      async () => {
        await Promise.all(relays.map((r) => r.pollOnce()));
        const { rows } = await pool.query(
          `SELECT count(*)::int AS n FROM ${schema}.outbox WHERE sent_at IS NULL AND dead_at IS NULL`,
        );
        return rows[0].n === 0 ? true : undefined;
      },
      30000,
      20,
    );
  }

  beforeAll(async () => {
    db = await createTestDatabase('relay');
    pool = new Pool({ connectionString: db.url, max: 10 });
    // Dropping the database at the end terminates whatever is still connected: not a test failure.
    pool.on('error', () => undefined);
    producer = producerFor(brokers);
    await producer.connect();
    collector = await TopicCollector.start([CalendarEventChanged.topic, DEAD_LETTER_TOPIC]);
  });

  afterAll(async () => {
    await collector?.stop();
    await producer?.disconnect();
    await pool?.end();
    await db?.drop();
  });

  it('publishes each event with key = aggregate id and the contract headers, then marks it sent', async () => {
    const { schema, writer } = await freshSchema();
    const agg = randomUUID();
    const [eventId] = await write(writer, [changed(agg, 1)]);
    const relay = new OutboxRelay(pool, schema, producer, baseOptions('r1'));
    expect(await relay.pollOnce()).toMatchObject({ claimed: 1, sent: 1, failed: 0 });
    const [msg] = await collector.waitFor((m) => m.headers['event-id'] === eventId);
    expect(msg.key).toBe(agg);
    expect(msg.headers).toMatchObject({
      'event-type': 'calendar.event.changed',
      'schema-version': '1',
      'aggregate-type': 'calendar.event',
      'tenant-id': 'acme',
      'request-id': 'req-1',
      'content-type': 'application/json',
    });
    expect(msg.value).toMatchObject({ eventId: agg, version: 1 });
    const { rows } = await pool.query(`SELECT sent_at, attempts, lease_owner FROM ${schema}.outbox`);
    expect(rows[0].sent_at).toBeInstanceOf(Date);
    expect(rows[0]).toMatchObject({ attempts: 1, lease_owner: null });
    expect(await relay.pollOnce()).toMatchObject({ claimed: 0 });
  });

  it('delivers every event once and in per-aggregate order while two relays race', async () => {
    const { schema, writer } = await freshSchema();
    const aggregates = Array.from({ length: 8 }, () => randomUUID());
    const payloads = Array.from({ length: 15 }, (_, i) => aggregates.map((a) => changed(a, i + 1))).flat();
    const ids = new Set(await write(writer, payloads));
    const opts = { ...baseOptions('a'), batchSize: 7 };
    await drain(
      [
        new OutboxRelay(pool, schema, producer, opts),
        new OutboxRelay(pool, schema, producer, { ...opts, owner: 'b' }),
      ],
      schema,
    );
    const got = await collector.waitFor((m) => ids.has(m.headers['event-id']), ids.size);
    expect(new Set(got.map((m) => m.headers['event-id'])).size).toBe(ids.size);
    expect(got).toHaveLength(ids.size);
    for (const a of aggregates) {
      const versions = got
        .filter((m) => m.key === a)
        .sort((x, y) => Number(x.offset) - Number(y.offset))
        .map((m) => (m.value as { version: number }).version);
      expect(versions).toEqual(Array.from({ length: 15 }, (_, i) => i + 1));
    }
  });

  it('dead-letters a poison event after N failures; the aggregate then moves on', async () => {
    const { schema, writer } = await freshSchema();
    const agg = randomUUID();
    // Written around the writer (as a bad migration or manual fix might): violates the contract.
    const poisonId = randomUUID();
    await pool.query(
      `INSERT INTO ${schema}.outbox (id, topic, event_type, schema_version, aggregate_type, aggregate_id, payload)
       VALUES ($1, 'calendar.event.changed.v1', 'calendar.event.changed', 1, 'calendar.event', $2, $3)`,
      [poisonId, agg, JSON.stringify({ ...changed(agg, 1), version: 0 })],
    );
    const [laterId] = await write(writer, [changed(agg, 2)]);
    const relay = new OutboxRelay(pool, schema, producer, baseOptions('r1'));
    const first = await relay.pollOnce();
    // Both rows are claimed; the later one is held back behind the failed one without counting an attempt.
    expect(first).toMatchObject({ claimed: 2, sent: 0, failed: 1 });
    const held = await pool.query(`SELECT attempts FROM ${schema}.outbox WHERE id = $1`, [laterId]);
    expect(held.rows[0].attempts).toBe(0);
    await drain([relay], schema);
    const [dead] = await collector.waitFor(
      (m) => m.topic === DEAD_LETTER_TOPIC && m.headers['event-id'] === poisonId,
    );
    expect(dead.headers['original-topic']).toBe('calendar.event.changed.v1');
    expect(dead.headers['dead-letter-reason']).toContain('version must be >= 1');
    await collector.waitFor((m) => m.headers['event-id'] === laterId);
    const { rows } = await pool.query(
      `SELECT id, failures, dead_at, sent_at FROM ${schema}.outbox ORDER BY seq`,
    );
    expect(rows[0]).toMatchObject({ id: poisonId, failures: 3, sent_at: null });
    expect(rows[0].dead_at).toBeInstanceOf(Date);
    expect(rows[1].sent_at).toBeInstanceOf(Date);
  });

  it('keeps events through a broker outage, never dead-letters them, and delivers after recovery', async () => {
    const cluster = KafkaMockCluster.start(1);
    cluster.createTopic(CalendarEventChanged.topic, 3);
    const own = producerFor(cluster.brokers, 1);
    await own.connect();
    const ownCollector = await TopicCollector.start([CalendarEventChanged.topic], cluster.brokers);
    try {
      const { schema, writer } = await freshSchema();
      const ids = await write(
        writer,
        Array.from({ length: 5 }, () => changed(randomUUID(), 1)),
      );
      const relay = new OutboxRelay(pool, schema, own, { ...baseOptions('r1'), maxFailures: 1 });
      cluster.setDown();
      const during = await relay.pollOnce();
      expect(during).toMatchObject({ claimed: 5, sent: 0, failed: 5, deadLettered: 0 });
      const { rows } = await pool.query(`SELECT attempts, failures, dead_at FROM ${schema}.outbox`);
      expect(rows.every((r) => r.attempts === 1 && r.failures === 0 && r.dead_at === null)).toBe(true);
      cluster.setUp();
      await drain([relay], schema);
      const got = await ownCollector.waitFor((m) => ids.includes(m.headers['event-id']), 5);
      expect(new Set(got.map((m) => m.headers['event-id']))).toEqual(new Set(ids));
    } finally {
      await ownCollector.stop();
      await own.disconnect();
    }
  });

  it('reports lag: pending events and the age of the oldest', async () => {
    const { schema, writer } = await freshSchema();
    await write(writer, [changed(randomUUID(), 1), changed(randomUUID(), 1)]);
    await pool.query(`UPDATE ${schema}.outbox SET created_at = now() - interval '90 seconds'`);
    const relay = new OutboxRelay(pool, schema, producer, baseOptions('r1'));
    const before = await relay.lag();
    expect(before).toMatchObject({ schema, pending: 2, dead: 0, available: true });
    expect(before.oldestPendingSeconds).toBeGreaterThanOrEqual(90);
    await relay.pollOnce();
    expect(await relay.lag()).toMatchObject({ pending: 0, oldestPendingSeconds: 0 });
    expect(await new OutboxRelay(pool, 'no_such_schema', producer, baseOptions('r1')).lag()).toMatchObject({
      available: false,
    });
  });

  it('loses no NOTIFY that arrives while a cycle runs (a slow broker makes the cycle long)', async () => {
    const cluster = KafkaMockCluster.start(1);
    cluster.createTopic(CalendarEventChanged.topic, 3);
    const own = await TopicCollector.start([CalendarEventChanged.topic], cluster.brokers);
    const { schema, writer } = await freshSchema();
    // The fallback poll is a minute away: only notifications can explain a prompt delivery.
    const relayApp = await createRelayApp(
      serviceEnv(db.url, {
        KAFKA_BROKERS: cluster.brokers,
        RELAY_SCHEMAS: schema,
        RELAY_POLL_INTERVAL_MS: '60000',
      }),
      false,
    );
    try {
      await listen(relayApp);
      await new Promise((r) => setTimeout(r, 300));
      cluster.setRtt(400);
      const [first] = await write(writer, [changed(randomUUID(), 1)]);
      // Commit the second event while the relay is busy publishing the first.
      await new Promise((r) => setTimeout(r, 150));
      const [second] = await write(writer, [changed(randomUUID(), 1)]);
      const got = await own.waitFor((m) => [first, second].includes(m.headers['event-id']), 2, 8000);
      expect(got).toHaveLength(2);
    } finally {
      cluster.setRtt(0);
      await relayApp.close();
      await own.stop();
    }
  });

  describe('the outbox-relay app', () => {
    let app: INestApplication;
    let base: string;
    let schema: string;
    let writer: OutboxWriter;

    beforeAll(async () => {
      ({ schema, writer } = await freshSchema());
      // A poll interval of a minute: only the writer's NOTIFY can explain a prompt delivery.
      app = await createRelayApp(
        serviceEnv(db.url, { RELAY_SCHEMAS: `${schema},missing_schema`, RELAY_POLL_INTERVAL_MS: '60000' }),
        false,
      );
      base = await listen(app);
    });

    afterAll(async () => {
      await app?.close();
    });

    it('wakes on the writer NOTIFY and publishes at once', async () => {
      await new Promise((r) => setTimeout(r, 300));
      const started = Date.now();
      const [id] = await write(writer, [changed(randomUUID(), 1)]);
      await collector.waitFor((m) => m.headers['event-id'] === id, 1, 10000);
      expect(Date.now() - started).toBeLessThan(10000);
    });

    it('exposes lag in the envelope and as Prometheus metrics', async () => {
      type Lag = {
        success: boolean;
        value: { pending: number; schemas: { schema: string; available: boolean }[] };
      };
      // The consumer can see a message before the relay's transaction marking it published commits.
      const lag = await eventually(async () => {
        const res = await request<Lag>(`${base}/relay/lag`);
        return res.body.value?.pending === 0 ? res : undefined;
      }, 5000);
      expect(lag.status).toBe(200);
      expect(lag.body.success).toBe(true);
      expect(lag.body.value.pending).toBe(0);
      expect(lag.body.value.schemas).toEqual(
        expect.arrayContaining([
          expect.objectContaining({ schema, available: true }),
          expect.objectContaining({ schema: 'missing_schema', available: false }),
        ]),
      );
      const metrics = await fetch(`${base}/metrics`);
      expect(metrics.headers.get('content-type')).toContain('text/plain');
      expect(await metrics.text()).toContain(`outbox_pending_events{schema="${schema}"} 0`);
    });

    it('reports outbox lag and dead letters, its pool and its requests on /metrics', async () => {
      const sample = (text: string, series: string) => {
        const line = text.split('\n').find((l) => l.startsWith(`${series} `));
        return line === undefined ? undefined : Number(line.slice(series.length + 1));
      };
      const [late, poison] = await write(writer, [changed(randomUUID(), 1), changed(randomUUID(), 1)]);
      await eventually(async () => {
        const { rows } = await pool.query<{ n: number }>(
          `SELECT count(*)::int AS n FROM ${schema}.outbox WHERE sent_at IS NULL AND dead_at IS NULL`,
        );
        return rows[0].n === 0 ? true : undefined;
      });
      // Without a NOTIFY the relay's next look is a minute away: one event waits (5 minutes old), one
      // is dead, as if Kafka had refused it.
      await pool.query(
        `UPDATE ${schema}.outbox SET sent_at = NULL, created_at = now() - interval '300 seconds' WHERE id = $1`,
        [late],
      );
      await pool.query(`UPDATE ${schema}.outbox SET dead_at = now() WHERE id = $1`, [poison]);
      await fetch(`${base}/relay/lag`).then((r) => r.text());
      const text = await (await fetch(`${base}/metrics`)).text();
      expect(sample(text, `outbox_pending_events{schema="${schema}"}`)).toBe(1);
      expect(sample(text, `outbox_oldest_pending_seconds{schema="${schema}"}`)).toBeGreaterThanOrEqual(299);
      expect(sample(text, `outbox_dead_events{schema="${schema}"}`)).toBe(1);
      // No outbox table there: no series rather than a zero that looks healthy.
      expect(text).not.toContain('schema="missing_schema"');
      expect(sample(text, 'outbox_published_total')).toBeGreaterThanOrEqual(3);
      expect(sample(text, 'db_pool_max_connections{pool="outbox-relay"}')).toBeGreaterThan(0);
      expect(
        sample(text, 'http_request_duration_seconds_count{method="GET",route="/relay/lag",status="200"}'),
      ).toBeGreaterThanOrEqual(2);
    });

    it('is ready when its database and broker answer', async () => {
      const ready = await request<{ value: { status: string } }>(`${base}/health/ready`);
      expect(ready.status).toBe(200);
      expect(ready.body.value.status).toBe('up');
    });
  });
});
