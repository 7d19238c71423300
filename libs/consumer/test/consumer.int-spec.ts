import { randomBytes, randomUUID } from 'node:crypto';
import { Injectable, Module, type INestApplicationContext } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { Admin, Producer } from 'kafkajs';
import { Pool, type PoolClient } from 'pg';
import { KafkaClientConfig, loadConfig } from '@platform/config';
import {
  ConsumerMetrics,
  ConsumerModule,
  ConsumerService,
  poolTransaction,
  type ConsumerContext,
  type ConsumerSeries,
  type ContractHandler,
  type DeliveryReport,
} from '../src';
import { KafkaApiKey, KafkaMockCluster } from '@platform/dev-infra';
import { DEAD_LETTER_TOPIC, defineContract, type TopicContract } from '@platform/messaging';
import { outboxTablesDdl } from '@platform/outbox';
import { TopicReader, eventually, freshDatabase, testKafka, type TestDatabase } from './consumer-harness';

interface ItemV1 {
  itemId: string;
  mode: 'ok' | 'fail-twice' | 'fail-always' | 'block';
}

const suffix = () => randomBytes(4).toString('hex');

function itemContract(label: string): TopicContract<ItemV1> {
  return defineContract({
    topic: `consumertest.${label}-${suffix()}.recorded.v1`,
    eventType: 'consumertest.item.recorded',
    schemaVersion: 1,
    aggregateType: 'consumertest.item',
    key: 'itemId',
    schema: {
      itemId: { type: 'string', maxLength: 64 },
      mode: { type: 'string', enum: ['ok', 'fail-twice', 'fail-always', 'block'] },
    },
  });
}

/** Every handler run, across all apps of this file: what the handler saw, before its transaction ended. */
const runs: { eventId: string; topic: string; attempt: number; tenantId: string | null }[] = [];
let schema = '';

/** Holds a `block` item's handler until the test releases it. */
const gate = {
  entered: undefined as undefined | (() => void),
  release: undefined as undefined | (() => void),
};

@Injectable()
class ItemHandler implements ContractHandler<ItemV1, PoolClient> {
  async handle(item: ItemV1, ctx: ConsumerContext<PoolClient>): Promise<void> {
    runs.push({ eventId: ctx.eventId, topic: ctx.topic, attempt: ctx.attempt, tenantId: ctx.tenantId });
    // Written before any failure below: a rollback must take it away with the inbox row.
    await ctx.tx.query(`INSERT INTO ${schema}.effects (event_id, topic, item_id) VALUES ($1, $2, $3)`, [
      ctx.eventId,
      ctx.topic,
      item.itemId,
    ]);
    if (item.mode === 'fail-twice' && ctx.attempt <= 2)
      throw new Error(`flaky ${item.itemId} #${ctx.attempt}`);
    if (item.mode === 'fail-always') throw new Error(`cannot apply ${item.itemId}`);
    if (item.mode === 'block') {
      await new Promise<void>((resolve) => {
        gate.release = resolve;
        gate.entered?.();
      });
    }
  }
}

describe('@platform/consumer (real PostgreSQL, Kafka-protocol broker)', () => {
  let db: TestDatabase;
  let pool: Pool;
  const apps: INestApplicationContext[] = [];
  const clients: { disconnect(): Promise<void> }[] = [];
  const brokers = process.env.KAFKA_BROKERS as string;

  async function startConsumer(o: {
    group: string;
    contracts: TopicContract<ItemV1>[];
    brokers?: string;
    reports?: DeliveryReport[];
    /** The caller closes it; otherwise it is closed after the test. */
    keep?: boolean;
    /** false: return at once, while the consumer may still be connecting or joining its group. */
    join?: boolean;
  }): Promise<INestApplicationContext> {
    const kafka = loadConfig(KafkaClientConfig, {
      KAFKA_BROKERS: o.brokers ?? brokers,
      KAFKA_CLIENT_ID: 'consumer-int',
      KAFKA_CONSUMER_MAX_WAIT_MS: '100',
      KAFKA_SESSION_TIMEOUT_MS: '6000',
    });
    @Module({})
    class ConsumerTestApp {}
    const app = await NestFactory.createApplicationContext(
      {
        module: ConsumerTestApp,
        imports: [
          ConsumerModule.forRootAsync({
            useFactory: () => ({
              kafka,
              schema,
              transaction: poolTransaction(pool),
              retry: { attempts: 3, baseMs: 5, maxMs: 20 },
              onOutcome: (r) => o.reports?.push(r),
            }),
          }),
          ConsumerModule.forFeature(
            o.contracts.map((c) => ({ contract: c, group: o.group, handler: ItemHandler })),
          ),
        ],
      },
      { logger: false },
    );
    if (!o.keep) apps.push(app);
    if (o.join !== false) await app.get(ConsumerService).whenJoined();
    return app;
  }

  async function producerFor(b = brokers): Promise<Producer> {
    const p = testKafka(b).producer();
    await p.connect();
    clients.push(p);
    return p;
  }

  async function adminFor(b = brokers): Promise<Admin> {
    const a = testKafka(b).admin();
    await a.connect();
    clients.push(a);
    return a;
  }

  async function deadLettersOn(b = brokers): Promise<TopicReader> {
    const r = await TopicReader.start(b, DEAD_LETTER_TOPIC);
    clients.push({ disconnect: () => r.stop() });
    return r;
  }

  async function publish(
    producer: Producer,
    contract: TopicContract<ItemV1>,
    item: ItemV1,
    o: { eventId?: string; value?: string } = {},
  ): Promise<string> {
    const eventId = o.eventId ?? randomUUID();
    await producer.send({
      topic: contract.topic,
      acks: -1,
      messages: [
        {
          key: item.itemId,
          value: o.value ?? JSON.stringify(item),
          headers: { 'event-id': eventId, 'schema-version': '1', 'tenant-id': 'acme', 'request-id': 'req-1' },
        },
      ],
    });
    return eventId;
  }

  async function rows(table: 'effects' | 'inbox', eventId: string): Promise<number> {
    const { rows: r } = await pool.query(
      `SELECT count(*)::int AS n FROM ${schema}.${table} WHERE event_id = $1`,
      [eventId],
    );
    return r[0].n as number;
  }

  async function committed(admin: Admin, group: string, topic: string): Promise<Record<number, string>> {
    const [t] = await admin.fetchOffsets({ groupId: group, topics: [topic] });
    return Object.fromEntries(t.partitions.map((p) => [p.partition, p.offset]));
  }

  /** The counters as an object, and the same figures in the Prometheus text. */
  function expectSeries(
    app: INestApplicationContext,
    group: string,
    topic: string,
    want: Partial<ConsumerSeries>,
  ) {
    const metrics = app.get(ConsumerMetrics);
    expect(metrics.get(group, topic)).toMatchObject(want);
    const text = metrics.prometheus();
    const names: Partial<Record<keyof ConsumerSeries, string>> = {
      handled: 'consumer_messages_handled_total',
      duplicates: 'consumer_messages_duplicate_total',
      failures: 'consumer_handler_failures_total',
      retries: 'consumer_handler_retries_total',
      invalid: 'consumer_messages_invalid_total',
      deadLettered: 'consumer_messages_dead_lettered_total',
      deadLetterErrors: 'consumer_dead_letter_errors_total',
    };
    for (const [k, v] of Object.entries(want)) {
      const name = names[k as keyof ConsumerSeries];
      if (name) expect(text).toContain(`${name}{group="${group}",topic="${topic}"} ${v}\n`);
    }
  }

  const settled = (app: INestApplicationContext, group: string, topic: string) => (n: number) =>
    eventually(async () => {
      const s = app.get(ConsumerMetrics).get(group, topic);
      return s && s.handled + s.duplicates + s.deadLettered >= n ? s : undefined;
    }, 30000);

  beforeAll(async () => {
    db = await freshDatabase('consumer');
    pool = new Pool({ connectionString: db.url, max: 8 });
    // Dropping the database at the end terminates whatever is still connected: not a test failure.
    pool.on('error', () => undefined);
    schema = `consumer_${suffix()}`;
    await pool.query(`CREATE SCHEMA ${schema}`);
    for (const ddl of outboxTablesDdl(schema)) await pool.query(ddl);
    await pool.query(
      `CREATE TABLE ${schema}.effects (event_id uuid NOT NULL, topic text NOT NULL, item_id text NOT NULL)`,
    );
  });

  afterEach(async () => {
    gate.release?.();
    await Promise.all(apps.splice(0).map((a) => a.close()));
  });

  afterAll(async () => {
    await Promise.all(clients.splice(0).map((c) => c.disconnect().catch(() => undefined)));
    await pool?.end();
    await db?.drop();
  });

  describe('one group consuming four contracts', () => {
    const group = `consumertest.main-${suffix()}`;
    const dup = itemContract('dup');
    const poison = itemContract('poison');
    const flaky = itemContract('flaky');
    const doomed = itemContract('doomed');
    let app: INestApplicationContext;
    let producer: Producer;
    let dlq: TopicReader;
    let admin: Admin;

    beforeAll(async () => {
      [producer, dlq, admin, app] = await Promise.all([
        producerFor(),
        deadLettersOn(),
        adminFor(),
        startConsumer({ group, contracts: [dup, poison, flaky, doomed], keep: true }),
      ]);
    });

    afterAll(async () => {
      await app?.close();
    });

    it('handles a message once although it is delivered twice', async () => {
      const eventId = await publish(producer, dup, { itemId: 'a-1', mode: 'ok' });
      await publish(producer, dup, { itemId: 'a-1', mode: 'ok' }, { eventId });
      await settled(app, group, dup.topic)(2);
      expect(runs.filter((r) => r.eventId === eventId)).toEqual([
        { eventId, topic: dup.topic, attempt: 1, tenantId: 'acme' },
      ]);
      expect(await rows('effects', eventId)).toBe(1);
      const inbox = await pool.query(`SELECT consumer, topic FROM ${schema}.inbox WHERE event_id = $1`, [
        eventId,
      ]);
      expect(inbox.rows).toEqual([{ consumer: group, topic: dup.topic }]);
      expectSeries(app, group, dup.topic, {
        handled: 1,
        duplicates: 1,
        failures: 0,
        retries: 0,
        deadLettered: 0,
      });
      expect(app.get(ConsumerMetrics).get(group, dup.topic)?.lastHandledAt).toEqual(expect.any(String));
    });

    it('sends an invalid payload to the dead-letter topic at once, untouched, saying where it came from and why', async () => {
      // Spacing the consumer would lose if it re-serialised the payload.
      const raw = '{ "itemId": "p-1",  "mode": "explode" }';
      const badEnum = await publish(producer, poison, { itemId: 'p-1', mode: 'ok' }, { value: raw });
      const notJson = await publish(producer, poison, { itemId: 'p-2', mode: 'ok' }, { value: 'not {json' });
      const first = await dlq.waitFor((m) => m.headers['event-id'] === badEnum);
      const second = await dlq.waitFor((m) => m.headers['event-id'] === notJson);
      expect(first.value).toBe(raw);
      expect(first.key).toBe('p-1');
      expect(first.headers).toMatchObject({
        'tenant-id': 'acme',
        'request-id': 'req-1',
        'original-topic': poison.topic,
        'original-partition': expect.stringMatching(/^\d+$/),
        'original-offset': expect.stringMatching(/^\d+$/),
        'dead-letter-consumer': group,
        'dead-letter-attempts': '0',
      });
      expect(first.headers['dead-letter-reason']).toContain('mode must be one of');
      expect(second.value).toBe('not {json');
      expect(second.headers['dead-letter-reason']).toContain('payload is not JSON');
      expect(runs.filter((r) => r.topic === poison.topic)).toEqual([]);
      await settled(app, group, poison.topic)(2);
      expectSeries(app, group, poison.topic, {
        invalid: 2,
        deadLettered: 2,
        failures: 0,
        retries: 0,
        handled: 0,
      });
    });

    it('retries a handler that fails twice, then applies the message once', async () => {
      const eventId = await publish(producer, flaky, { itemId: 'f-1', mode: 'fail-twice' });
      await settled(app, group, flaky.topic)(1);
      expect(runs.filter((r) => r.eventId === eventId).map((r) => r.attempt)).toEqual([1, 2, 3]);
      expect(await rows('effects', eventId)).toBe(1);
      expect(await rows('inbox', eventId)).toBe(1);
      expectSeries(app, group, flaky.topic, {
        handled: 1,
        failures: 2,
        retries: 2,
        deadLettered: 0,
        duplicates: 0,
      });
    });

    it('dead-letters a message that fails every attempt, keeps none of its writes, and moves on in its partition', async () => {
      const failing = await publish(producer, doomed, { itemId: 'd-1', mode: 'fail-always' });
      const next = await publish(producer, doomed, { itemId: 'd-1', mode: 'ok' });
      const dead = await dlq.waitFor((m) => m.headers['event-id'] === failing);
      expect(dead.value).toBe(JSON.stringify({ itemId: 'd-1', mode: 'fail-always' }));
      expect(dead.headers).toMatchObject({ 'dead-letter-attempts': '3', 'dead-letter-consumer': group });
      expect(dead.headers['dead-letter-reason']).toContain('cannot apply d-1');
      await settled(app, group, doomed.topic)(2);
      expect(runs.filter((r) => r.eventId === failing).map((r) => r.attempt)).toEqual([1, 2, 3]);
      // Each failed run wrote an effect and an inbox row before throwing: all rolled back.
      expect(await rows('effects', failing)).toBe(0);
      expect(await rows('inbox', failing)).toBe(0);
      expect(await rows('effects', next)).toBe(1);
      // Same key, same partition: the commit moved past both messages.
      const partition = Number(dead.headers['original-partition']);
      const after = String(Number(dead.headers['original-offset']) + 2);
      await eventually(async () =>
        (await committed(admin, group, doomed.topic))[partition] === after ? true : undefined,
      );
      expectSeries(app, group, doomed.topic, {
        handled: 1,
        failures: 3,
        retries: 2,
        deadLettered: 1,
        invalid: 0,
      });
    });
  });

  it('keeps a message it cannot dead-letter uncommitted, through a shutdown, and dead-letters it once after', async () => {
    const cluster = KafkaMockCluster.start(1);
    const contract = itemContract('stuck');
    cluster.createTopic(contract.topic, 1);
    cluster.createTopic(DEAD_LETTER_TOPIC, 1);
    const group = `consumertest.stuck-${suffix()}`;
    const [producer, admin] = await Promise.all([producerFor(cluster.brokers), adminFor(cluster.brokers)]);
    const eventId = await publish(producer, contract, { itemId: 's-1', mode: 'ok' }, { value: '[]' });
    // Every publish fails from now on (29 = TOPIC_AUTHORIZATION_FAILED, not retriable), dead-letters included.
    cluster.pushRequestErrors(
      KafkaApiKey.Produce,
      Array.from({ length: 5000 }, () => 29),
    );

    // kafkajs logs each refused produce at ERROR: the planted failure, expected and held to that.
    const refusals: string[] = [];
    const spy = jest.spyOn(console, 'error').mockImplementation((...args: unknown[]) => {
      refusals.push(args.map(String).join(' '));
    });
    const first = await startConsumer({ group, contracts: [contract], brokers: cluster.brokers });
    await eventually(async () => {
      const s = first.get(ConsumerMetrics).get(group, contract.topic);
      return s && s.deadLetterErrors >= 2 ? true : undefined;
    });
    expect(await committed(admin, group, contract.topic)).toEqual({ 0: '-1' });
    await first.close();
    expect(first.get(ConsumerMetrics).get(group, contract.topic)).toMatchObject({
      deadLettered: 0,
      invalid: 1,
    });
    expect(await committed(admin, group, contract.topic)).toEqual({ 0: '-1' });
    spy.mockRestore();
    expect(refusals.length).toBeGreaterThan(0);
    expect(refusals.filter((l) => !/Produce\(key: 0|Not authorized to access topics/.test(l))).toEqual([]);

    cluster.clearRequestErrors(KafkaApiKey.Produce);
    const dlq = await deadLettersOn(cluster.brokers);
    const second = await startConsumer({ group, contracts: [contract], brokers: cluster.brokers });
    const dead = await dlq.waitFor((m) => m.headers['event-id'] === eventId);
    expect(dead.value).toBe('[]');
    expect(dead.headers).toMatchObject({ 'original-offset': '0', 'dead-letter-attempts': '0' });
    await eventually(async () =>
      (await committed(admin, group, contract.topic))[0] === '1' ? true : undefined,
    );
    expect(dlq.messages.filter((m) => m.headers['event-id'] === eventId)).toHaveLength(1);
    expectSeries(second, group, contract.topic, { deadLettered: 1, deadLetterErrors: 0 });
  });

  it('closes an app whose consumer is still joining without an ERROR line, and the consumer stays gone', async () => {
    const contract = itemContract('early');
    const group = `consumertest.early-${suffix()}`;
    const logged: string[] = [];
    const capture = (...args: unknown[]) => logged.push(args.map(String).join(' '));
    const spies = [
      jest.spyOn(console, 'error').mockImplementation(capture),
      jest.spyOn(console, 'warn').mockImplementation(capture),
    ];
    try {
      // Closed at several moments of its start: connecting, subscribing, joining.
      for (const after of [0, 20, 60, 150, 400]) {
        const app = await startConsumer({ group, contracts: [contract], keep: true, join: false });
        await new Promise((r) => setTimeout(r, after));
        await app.close();
      }
      // kafkajs restarts a crashed consumer after 100 ms: none may come back after its app closed
      // and take a message.
      await new Promise((r) => setTimeout(r, 1500));
      const producer = await producerFor();
      const late = await publish(producer, contract, { itemId: 'e-1', mode: 'ok' });
      await new Promise((r) => setTimeout(r, 3000));
      expect(runs.filter((r) => r.eventId === late)).toEqual([]);
    } finally {
      spies.forEach((s) => s.mockRestore());
    }
    // (The test's own producer warns once about kafkajs 2's partitioner: not the consumer's.)
    expect(
      logged.filter((l) => /"level":"(ERROR|WARN)"|crash|restart/i.test(l) && !/partitioner/.test(l)),
    ).toEqual([]);
  });

  it('finishes and commits the in-flight message on shutdown; the next replica starts after it', async () => {
    const contract = itemContract('drain');
    const group = `consumertest.drain-${suffix()}`;
    const [producer, admin] = await Promise.all([producerFor(), adminFor()]);
    const first = await startConsumer({ group, contracts: [contract] });
    const entered = new Promise<void>((resolve) => (gate.entered = resolve));
    const slow = await publish(producer, contract, { itemId: 'k-1', mode: 'block' });
    await entered;
    const closing = first.close();
    // The stop has begun and waits for the handler; nothing is committed yet.
    expect(await rows('effects', slow)).toBe(0);
    gate.release?.();
    await closing;
    expect(await rows('effects', slow)).toBe(1);
    // One message in one partition: that partition's commit is past it, the others have none.
    const offsets = await committed(admin, group, contract.topic);
    expect(Object.values(offsets).filter((o) => o !== '-1')).toEqual(['1']);

    const reports: DeliveryReport[] = [];
    const second = await startConsumer({ group, contracts: [contract], reports });
    const next = await publish(producer, contract, { itemId: 'k-1', mode: 'ok' });
    await settled(second, group, contract.topic)(1);
    expect(reports.map((r) => [r.eventId, r.outcome])).toEqual([[next, 'handled']]);
    expect(runs.filter((r) => r.eventId === slow)).toHaveLength(1);
  });

  it('spreads partitions over the replicas of a group; every message has exactly one effect', async () => {
    // Its own broker: the topic needs several partitions whatever auto-creation would make.
    const cluster = KafkaMockCluster.start(1);
    const contract = itemContract('spread');
    cluster.createTopic(contract.topic, 4);
    const group = `consumertest.spread-${suffix()}`;
    const producer = await producerFor(cluster.brokers);
    const [a, b] = await Promise.all([
      startConsumer({ group, contracts: [contract], brokers: cluster.brokers }),
      startConsumer({ group, contracts: [contract], brokers: cluster.brokers }),
    ]);
    const ids = await Promise.all(
      Array.from({ length: 24 }, (_, i) => publish(producer, contract, { itemId: `r-${i}`, mode: 'ok' })),
    );
    await eventually(async () => {
      const handled = [a, b].map((app) => app.get(ConsumerMetrics).get(group, contract.topic)?.handled ?? 0);
      return handled[0] + handled[1] >= ids.length ? true : undefined;
    }, 30000);
    const held = [a, b].map((app) => app.get(ConsumerService).status()[0].assignment[contract.topic] ?? []);
    expect(held[0].length).toBeGreaterThan(0);
    expect(held[1].length).toBeGreaterThan(0);
    expect(held[0].filter((p) => held[1].includes(p))).toEqual([]);
    const { rows: effects } = await pool.query(
      `SELECT event_id, count(*)::int AS n FROM ${schema}.effects WHERE topic = $1 GROUP BY event_id`,
      [contract.topic],
    );
    expect(effects).toHaveLength(ids.length);
    expect(effects.every((r) => r.n === 1)).toBe(true);
    expect(new Set(effects.map((r) => r.event_id))).toEqual(new Set(ids));
  });
});
