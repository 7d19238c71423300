/**
 * Outbox relay throughput: N events are written to an outbox table (real PostgreSQL), then one relay
 * drains them to the Kafka-protocol broker. Prints events/s and per-batch latency percentiles.
 * The mock broker is a behavioural stand-in, not a performance one: read the figure as the relay's and
 * PostgreSQL's cost, not Kafka's.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { Kafka, logLevel } from 'kafkajs';
import { Pool } from 'pg';
import { KafkaMockCluster, startEmbeddedPostgres } from '@platform/dev-infra';
import { CalendarEventChanged } from '@platform/messaging';
import { OutboxRelay, OutboxWriter, outboxTablesDdl } from '@platform/outbox';

const EVENTS = Number(process.env.BENCH_EVENTS ?? 20000);
const BATCH = Number(process.env.BENCH_BATCH ?? 500);

const print = (line: string) => process.stdout.write(`${line}\n`);

function pct(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

async function main(): Promise<void> {
  const pg = await startEmbeddedPostgres({
    dataDir: mkdtempSync(join(tmpdir(), 'bench-pg-')),
    persistent: false,
  });
  const url = await pg.createDatabase('bench');
  const cluster = KafkaMockCluster.start(1);
  cluster.createTopic(CalendarEventChanged.topic, 3);
  const pool = new Pool({ connectionString: url, max: 4 });
  const producer = new Kafka({ brokers: cluster.brokers.split(','), logLevel: logLevel.NOTHING }).producer({
    maxInFlightRequests: 1,
  });
  await producer.connect();
  try {
    for (const ddl of ['CREATE SCHEMA bench', ...outboxTablesDdl('bench')]) await pool.query(ddl);
    const writer = new OutboxWriter('bench');
    const aggregates = Array.from({ length: 200 }, () => randomUUID());
    const writeStart = process.hrtime.bigint();
    for (let i = 0; i < EVENTS; i += 1000) {
      const client = await pool.connect();
      await client.query('BEGIN');
      for (let j = i; j < Math.min(EVENTS, i + 1000); j++) {
        const agg = aggregates[j % aggregates.length];
        await writer.append(client, CalendarEventChanged, {
          eventId: agg,
          accountId: 'bench',
          productId: 'bench',
          entityType: 'deal',
          entityId: `d-${j}`,
          version: Math.floor(j / aggregates.length) + 1,
          title: 'bench',
          startsAt: null,
          endsAt: null,
          status: 'confirmed',
          changedAt: new Date().toISOString(),
        });
      }
      await client.query('COMMIT');
      client.release();
    }
    const writeSec = Number(process.hrtime.bigint() - writeStart) / 1e9;

    const relay = new OutboxRelay(pool, 'bench', producer, {
      owner: 'bench',
      batchSize: BATCH,
      leaseMs: 30000,
      maxFailures: 5,
      backoffBaseMs: 100,
      backoffMaxMs: 1000,
    });
    const latencies: number[] = [];
    let sent = 0;
    const start = process.hrtime.bigint();
    for (;;) {
      const t = process.hrtime.bigint();
      const r = await relay.pollOnce();
      if (r.claimed === 0) break;
      latencies.push(Number(process.hrtime.bigint() - t) / 1e6);
      sent += r.sent;
    }
    const sec = Number(process.hrtime.bigint() - start) / 1e9;
    latencies.sort((a, b) => a - b);
    const mem = process.memoryUsage();
    print(
      `outbox writes:   ${EVENTS} events in ${writeSec.toFixed(2)} s = ${Math.round(EVENTS / writeSec)} events/s (1000 per transaction)`,
    );
    print(
      `relay publish:   ${sent} events in ${sec.toFixed(2)} s = ${Math.round(sent / sec)} events/s (batch ${BATCH})`,
    );
    print(
      `batch latency:   p50 ${pct(latencies, 50).toFixed(1)} ms, p99 ${pct(latencies, 99).toFixed(1)} ms over ${latencies.length} batches`,
    );
    print(
      `relay process:   rss ${(mem.rss / 2 ** 20).toFixed(0)} MiB, heap used ${(mem.heapUsed / 2 ** 20).toFixed(0)} MiB`,
    );
    if (sent !== EVENTS) throw new Error(`published ${sent} of ${EVENTS}`);
  } finally {
    await producer.disconnect();
    await pool.end();
    await pg.stop();
  }
  process.exit(0);
}

main().catch((err: unknown) => {
  process.stderr.write(`${String(err)}\n`);
  process.exit(1);
});
