/**
 * Outbox relay against its ceiling, in one run: real PostgreSQL (embedded), librdkafka's mock broker in
 * this process, the relay built by the app's own code (apps/outbox-relay: config defaults, pool,
 * producer settings, drain loop), and a raw kafkajs producer with the relay's producer settings sending
 * messages of the relay's shape (key, JSON value, the eight headers) in batches of the relay's size,
 * acks=-1, one request in flight, no compression, to the same topic of the same broker.
 *
 * 1. Throughput, BENCH_ROUNDS rounds after a warm-up: BENCH_EVENTS events committed to the outbox (1,000
 *    per transaction), then the relay drains them (events/s from its first claim to its last mark),
 *    then the raw producer sends as many messages (msgs/s). The ratio of each round is taken from the
 *    two figures measured back to back; the median round is the result.
 * 2. Latency: the app's drain loop woken by the writers' NOTIFY while a writer loop commits BENCH_RATE
 *    events/s for BENCH_SECONDS, one event per transaction; commit-to-publish is the time from the
 *    writer's COMMIT returning to the broker's acknowledgement of the batch holding the event.
 *
 * The mock broker is a behavioural stand-in, not a performance one: the figures are the relay's and
 * PostgreSQL's cost next to kafkajs's, not Kafka's. Run from source with
 * `TS_NODE_PROJECT=scripts/tsconfig.typecheck.json node -r ts-node/register/transpile-only \
 *   -r ./scripts/register-paths.js bench/outbox-relay.bench.ts`, or built by `npm run bench`.
 */
import 'reflect-metadata';
import { mkdtempSync, readFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { randomUUID } from 'node:crypto';
import type { Producer } from 'kafkajs';
import { Pool } from 'pg';
import { loadConfig } from '@platform/config';
import { KafkaMockCluster, startEmbeddedPostgres } from '@platform/dev-infra';
import { CalendarEventChanged, EventHeader, type CalendarEventChangedV1 } from '@platform/messaging';
import { OutboxWriter, outboxTablesDdl, type OutboxRelay, type RelayProducer } from '@platform/outbox';
import { RelayConfig } from '../apps/outbox-relay/src/config/relay.config';
import { OutboxRepository } from '../apps/outbox-relay/src/relay/outbox.repository';
import { RelayLoop } from '../apps/outbox-relay/src/relay/relay-loop';
import {
  createRelayProducer,
  relayLoopTiming,
  relayOptions,
} from '../apps/outbox-relay/src/relay/relay.settings';

const SCHEMA = 'bench';
const EVENTS = Number(process.env.BENCH_EVENTS ?? 20000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const RATE = Number(process.env.BENCH_RATE ?? 1000);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const AGGREGATES = 200;
const TOPIC = CalendarEventChanged.topic;

const print = (line: string) => process.stdout.write(`${line}\n`);
const fmt = (n: number) => Math.round(n).toLocaleString('en-US');

function median(values: number[]): number {
  return [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
}

/** `n` calendar changes over AGGREGATES events (message keys), versions rising per event. */
function calendarChanges(n: number): CalendarEventChangedV1[] {
  const ids = Array.from({ length: AGGREGATES }, () => randomUUID());
  const changedAt = new Date().toISOString();
  return Array.from({ length: n }, (_, j) => ({
    eventId: ids[j % AGGREGATES],
    accountId: 'bench',
    productId: 'bench',
    entityType: 'deal',
    entityId: `d-${j}`,
    version: Math.floor(j / AGGREGATES) + 1,
    title: 'bench',
    startsAt: null,
    endsAt: null,
    status: 'confirmed',
    changedAt,
  }));
}

/**
 * CPU seconds used so far by the PostgreSQL server on `dataDir` (postmaster, live backends, and the
 * exited ones it reaped), from /proc; undefined where there is no /proc.
 */
function postgresCpuSeconds(dataDir: string): number | undefined {
  const field = (pid: string) => {
    try {
      return readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    } catch {
      return undefined;
    }
  };
  let pids: string[];
  try {
    pids = readdirSync('/proc').filter((d) => /^\d+$/.test(d));
  } catch {
    return undefined;
  }
  const master = pids.find((pid) => {
    try {
      return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').includes(dataDir);
    } catch {
      return false;
    }
  });
  if (!master) return undefined;
  let ticks = 0;
  for (const pid of pids) {
    const f = field(pid);
    if (!f) continue;
    // utime, stime (fields 14, 15); the postmaster also counts its reaped children (16, 17).
    if (pid === master) ticks += Number(f[11]) + Number(f[12]) + Number(f[13]) + Number(f[14]);
    else if (f[1] === master) ticks += Number(f[11]) + Number(f[12]);
  }
  return ticks / 100;
}

/** CPU microseconds per item spent by this process and by PostgreSQL while `work` runs. */
async function cpuPerItem<T extends { items: number }>(dataDir: string, work: () => Promise<T>) {
  const pg0 = postgresCpuSeconds(dataDir);
  const node0 = process.cpuUsage();
  const result = await work();
  const node = process.cpuUsage(node0);
  const pg1 = postgresCpuSeconds(dataDir);
  return {
    result,
    nodeUs: (node.user + node.system) / result.items,
    pgUs: pg0 === undefined || pg1 === undefined ? NaN : ((pg1 - pg0) * 1e6) / result.items,
  };
}

const APPEND = { tenantId: 'bench', requestId: 'bench-request' };

/** The message the relay publishes for such a row (libs/outbox toMessage): same key, value, headers. */
function relayShapedMessage(p: CalendarEventChangedV1) {
  return {
    key: p.eventId,
    value: JSON.stringify(p),
    headers: {
      [EventHeader.EventId]: randomUUID(),
      [EventHeader.EventType]: CalendarEventChanged.eventType,
      [EventHeader.SchemaVersion]: String(CalendarEventChanged.schemaVersion),
      [EventHeader.AggregateType]: CalendarEventChanged.aggregateType,
      [EventHeader.OccurredAt]: new Date().toISOString(),
      [EventHeader.ContentType]: 'application/json',
      [EventHeader.TenantId]: APPEND.tenantId,
      [EventHeader.RequestId]: APPEND.requestId,
    },
  };
}

/** The ceiling: the relay's producer settings, its batch size, acks=-1, one batch after the other. */
async function rawProducerRate(producer: Producer, events: CalendarEventChangedV1[], batch: number) {
  const messages = events.map(relayShapedMessage);
  const started = performance.now();
  for (let i = 0; i < messages.length; i += batch) {
    await producer.sendBatch({
      topicMessages: [{ topic: TOPIC, messages: messages.slice(i, i + batch) }],
      acks: -1,
    });
  }
  return messages.length / ((performance.now() - started) / 1000);
}

async function writeBacklog(pool: Pool, writer: OutboxWriter, events: CalendarEventChangedV1[]) {
  const started = performance.now();
  for (let i = 0; i < events.length; i += 1000) {
    const client = await pool.connect();
    try {
      await client.query('BEGIN');
      for (const e of events.slice(i, i + 1000)) await writer.append(client, CalendarEventChanged, e, APPEND);
      await client.query('COMMIT');
    } finally {
      client.release();
    }
  }
  return events.length / ((performance.now() - started) / 1000);
}

/** The relay drains what is there, as its loop does after a NOTIFY: events/s from first claim to last mark. */
async function relayRate(relay: OutboxRelay, expected: number) {
  let sent = 0;
  let batches = 0;
  const started = performance.now();
  for (;;) {
    const r = await relay.drain();
    sent += r.sent;
    batches += r.batches;
    if (!r.more && r.claimed === 0) break;
  }
  const seconds = (performance.now() - started) / 1000;
  if (sent !== expected) throw new Error(`relay published ${sent} of ${expected}`);
  return { perSecond: sent / seconds, batches };
}

/** Records when the broker acknowledged each event (by its event-id header). */
function observed(producer: Producer, acked: Map<string, number>): RelayProducer {
  return {
    async sendBatch(batch) {
      const result = await producer.sendBatch(batch);
      const at = performance.now();
      for (const t of batch.topicMessages)
        for (const m of t.messages) acked.set(m.headers[EventHeader.EventId], at);
      return result;
    },
  };
}

async function latencyAtRate(
  cfg: RelayConfig,
  repo: OutboxRepository,
  producer: Producer,
  writerPool: Pool,
  writer: OutboxWriter,
) {
  const acked = new Map<string, number>();
  const relay = repo.relayFor(SCHEMA, observed(producer, acked), relayOptions(cfg));
  const loop = new RelayLoop([relay], { ...relayLoopTiming(cfg), ready: async () => true });
  const listener = await repo.listen(
    (schema) => loop.notify(schema),
    (err) => print(`LISTEN lost: ${err.message}`),
  );
  loop.start();
  try {
    await new Promise((r) => setTimeout(r, 200));
    const events = calendarChanges(RATE * SECONDS);
    const committed = new Map<string, number>();
    const writes: Promise<void>[] = [];
    const started = performance.now();
    let i = 0;
    // Open loop: each event is due at its time whether or not earlier commits have returned.
    while (i < events.length) {
      const due = Math.min(events.length, Math.floor(((performance.now() - started) / 1000) * RATE) + 1);
      for (; i < due; i++) {
        writes.push(
          writer
            .append(writerPool, CalendarEventChanged, events[i], APPEND)
            .then((id) => void committed.set(id, performance.now())),
        );
      }
      await new Promise((r) => setTimeout(r, 1));
    }
    await Promise.all(writes);
    const achieved = events.length / ((performance.now() - started) / 1000);
    const deadline = Date.now() + 60_000;
    while ([...committed.keys()].some((id) => !acked.has(id))) {
      if (Date.now() > deadline) throw new Error('the relay left events unpublished for a minute');
      await new Promise((r) => setTimeout(r, 50));
    }
    const latencies = [...committed].map(([id, at]) => (acked.get(id) as number) - at).sort((a, b) => a - b);
    return { achieved, latencies };
  } finally {
    await loop.stop();
    await listener.close();
  }
}

async function main(): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'bench-pg-'));
  const pg = await startEmbeddedPostgres({ dataDir, persistent: false });
  const url = await pg.createDatabase('bench');
  const cluster = KafkaMockCluster.start(1);
  cluster.createTopic(TOPIC, 3);
  const cfg = loadConfig(RelayConfig, {
    DATABASE_URL: url,
    KAFKA_BROKERS: cluster.brokers,
    RELAY_SCHEMAS: SCHEMA,
    INSTANCE_ID: 'bench',
    ...(process.env.BENCH_BATCH ? { RELAY_BATCH_SIZE: process.env.BENCH_BATCH } : {}),
  });
  const batch = cfg.RELAY_BATCH_SIZE;
  // The relay's own pool (the app's OutboxRepository); the writers have theirs, as services do.
  const repo = new OutboxRepository(cfg);
  const writerPool = new Pool({ connectionString: url, max: 8 });
  writerPool.on('error', () => undefined);
  const relayProducer = createRelayProducer(cfg);
  const rawProducer = createRelayProducer(cfg);
  await Promise.all([relayProducer.connect(), rawProducer.connect()]);
  try {
    for (const ddl of [`CREATE SCHEMA ${SCHEMA}`, ...outboxTablesDdl(SCHEMA)]) await writerPool.query(ddl);
    const writer = new OutboxWriter(SCHEMA);
    const relay = repo.relayFor(SCHEMA, relayProducer, relayOptions(cfg));

    print(
      `outbox relay vs raw kafkajs producer: ${EVENTS} events per round, batches of ${batch}, acks=-1, ` +
        `one request in flight, no compression, 1 broker, ${TOPIC} with 3 partitions, ${AGGREGATES} aggregates`,
    );
    // Warm-up: connections, metadata, JIT.
    const warm = calendarChanges(Math.min(EVENTS, 4000));
    await writeBacklog(writerPool, writer, warm);
    await relayRate(relay, warm.length);
    await rawProducerRate(rawProducer, warm, batch);

    const rounds: { relay: number; raw: number }[] = [];
    for (let round = 1; round <= ROUNDS; round++) {
      const events = calendarChanges(EVENTS);
      const write = await writeBacklog(writerPool, writer, events);
      const relayRun = await cpuPerItem(dataDir, async () => {
        const r = await relayRate(relay, events.length);
        return { ...r, items: events.length };
      });
      const rawRun = await cpuPerItem(dataDir, async () => ({
        perSecond: await rawProducerRate(rawProducer, events, batch),
        items: events.length,
      }));
      const r = { relay: relayRun.result.perSecond, raw: rawRun.result.perSecond };
      rounds.push(r);
      print(
        `round ${round}:  raw producer ${fmt(r.raw).padStart(7)} msgs/s   relay ${fmt(r.relay).padStart(7)} events/s   ` +
          `ratio ${(r.relay / r.raw).toFixed(2)}   cpu per event: raw ${rawRun.nodeUs.toFixed(0)} us, relay ` +
          `${relayRun.nodeUs.toFixed(0)} us + PostgreSQL ${relayRun.pgUs.toFixed(0)} us   (${relayRun.result.batches} ` +
          `batches; outbox writes ${fmt(write)} events/s, 1000 per transaction)`,
      );
    }
    print(
      `median:   raw producer ${fmt(median(rounds.map((r) => r.raw))).padStart(7)} msgs/s   relay ` +
        `${fmt(median(rounds.map((r) => r.relay))).padStart(7)} events/s   ratio ` +
        `${median(rounds.map((r) => r.relay / r.raw)).toFixed(2)} (median of the rounds' ratios; target >= 0.50)`,
    );

    const { achieved, latencies } = await latencyAtRate(cfg, repo, relayProducer, writerPool, writer);
    print(
      `commit-to-publish at ${RATE} events/s (one per transaction, offered ${fmt(achieved)}/s for ${SECONDS} s, ` +
        `app drain loop woken by NOTIFY): p50 ${percentile(latencies, 50).toFixed(1)} ms, p99 ` +
        `${percentile(latencies, 99).toFixed(1)} ms, max ${(latencies.at(-1) ?? NaN).toFixed(1)} ms ` +
        `over ${latencies.length} events (target p99 < 50 ms)`,
    );
    const mem = process.memoryUsage();
    print(
      `bench process:  rss ${(mem.rss / 2 ** 20).toFixed(0)} MiB, heap used ${(mem.heapUsed / 2 ** 20).toFixed(0)} MiB`,
    );
  } finally {
    await relayProducer.disconnect();
    await rawProducer.disconnect();
    await writerPool.end();
    await repo.onApplicationShutdown();
    await pg.stop();
  }
  process.exit(0);
}

main().catch((err: unknown) => {
  process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});
