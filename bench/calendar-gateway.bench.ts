/**
 * Calendar throughput through the gateway: the six built apps as processes (as in production), real
 * PostgreSQL, the Kafka-protocol broker; a keep-alive client with C concurrent requests. Prints req/s and
 * p50/p99 latency for upserts (creates and updates) and for the events query.
 */
import { mkdtempSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { KafkaMockCluster, launchSystem, runAdmin, startEmbeddedPostgres } from '@platform/dev-infra';
import { CONTRACTS, DEAD_LETTER_TOPIC } from '@platform/messaging';

const DIST = resolve(__dirname, '..');
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 32);
const print = (line: string) => process.stdout.write(`${line}\n`);

const agent = new Agent({ keepAlive: true, maxSockets: CONCURRENCY });
const reported = new Set<number>();

function call(url: URL, method: string, headers: Record<string, string>, body?: string): Promise<number> {
  return new Promise((resolveStatus) => {
    const req = request(
      {
        agent,
        host: url.hostname,
        port: url.port,
        path: `${url.pathname}${url.search}`,
        method,
        headers: body
          ? {
              ...headers,
              'content-type': 'application/json',
              'content-length': String(Buffer.byteLength(body)),
            }
          : headers,
      },
      (res) => {
        let text = '';
        res.on('data', (c: Buffer) => {
          if (res.statusCode !== undefined && res.statusCode >= 400 && text.length < 2000)
            text += c.toString();
        });
        res.on('end', () => {
          if (text && !reported.has(res.statusCode ?? 0)) {
            reported.add(res.statusCode ?? 0);
            print(`first ${res.statusCode} answer: ${text.slice(0, 300)}`);
          }
          resolveStatus(res.statusCode ?? 0);
        });
      },
    );
    // A failed request counts as status -1 rather than stopping the run.
    req.on('error', () => resolveStatus(-1));
    req.end(body);
  });
}

async function load(name: string, next: (i: number) => Promise<number>, max = Infinity): Promise<void> {
  const latencies: number[] = [];
  const statuses = new Map<number, number>();
  let i = 0;
  const until = Date.now() + SECONDS * 1000;
  const started = process.hrtime.bigint();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (Date.now() < until && i < max) {
        const n = i++;
        const t = process.hrtime.bigint();
        const status = await next(n);
        latencies.push(Number(process.hrtime.bigint() - t) / 1e6);
        statuses.set(status, (statuses.get(status) ?? 0) + 1);
      }
    }),
  );
  const sec = Number(process.hrtime.bigint() - started) / 1e9;
  latencies.sort((a, b) => a - b);
  const p = (q: number) =>
    latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))].toFixed(1);
  print(
    `${name.padEnd(22)} ${Math.round(latencies.length / sec)} req/s  p50 ${p(0.5)} ms  p99 ${p(0.99)} ms  (${latencies.length} requests, ${CONCURRENCY} concurrent, statuses ${JSON.stringify(Object.fromEntries(statuses))})`,
  );
}

async function main(): Promise<void> {
  const pg = await startEmbeddedPostgres({
    dataDir: mkdtempSync(join(tmpdir(), 'bench-cal-')),
    persistent: false,
  });
  const databaseUrl = await pg.createDatabase('bench');
  const cluster = KafkaMockCluster.start(1);
  for (const t of [...CONTRACTS.keys(), DEAD_LETTER_TOPIC]) cluster.createTopic(t, 3);
  const env = { DATABASE_URL: databaseUrl, KAFKA_BROKERS: cluster.brokers, NODE_ENV: 'test' };
  const system = await launchSystem({
    distDir: DIST,
    databaseUrl,
    kafkaBrokers: cluster.brokers,
    ports: 'free',
    nodeEnv: 'test',
    env: {
      LOG_LEVEL: 'warn',
      CALENDAR_WRITE_LIMIT: '100000000',
      ...(process.env.BENCH_POOL ? { DB_POOL_MAX: process.env.BENCH_POOL } : {}),
    },
  });
  try {
    const seed = runAdmin(DIST, 'calendar', ['seed-demo'], env) as {
      accountId: string;
      productId: string;
      apiKey: string;
    };
    const headers = { API_KEY: seed.apiKey, AccountId: seed.accountId, ProductId: seed.productId };
    const upsert = new URL(`${system.gatewayUrl}/Calendar/upsert`);
    const day = (n: number) =>
      new Date(Date.UTC(2026, 11, 1) + (n % 30) * 86400000 + (n % 9) * 3600000).toISOString();
    const body = (n: number, version: number) =>
      JSON.stringify({
        entity_type: 'deal',
        entity_id: `D-${n}`,
        version,
        title: `Deal ${n}`,
        start: { date_time: day(n), time_zone: 'Asia/Almaty' },
        owner: `person-${n % 50}`,
        assignees: [`person-${(n + 1) % 50}`],
        resources: [{ type: 'room', id: `r-${n % 20}` }],
      });
    let created = 0;
    await load('upsert (create)', async (n) => {
      created = Math.max(created, n + 1);
      return call(upsert, 'POST', headers, body(n, 0));
    });
    // Each created event once more, at version 1 (one pass: a second would meet version 2).
    await load('upsert (update v1->v2)', (n) => call(upsert, 'POST', headers, body(n, 1)), created);
    // A week starting on one of the 30 days that hold events, for one of the 50 people.
    const query = (n: number) => {
      const from = Date.UTC(2026, 11, 1) + (n % 30) * 86400000;
      const range = `from=${new Date(from).toISOString()}&to=${new Date(from + 7 * 86400000).toISOString()}`;
      return new URL(`${system.gatewayUrl}/Calendar/events?${range}&person=person-${n % 50}&limit=50`);
    };
    await load('events query (week)', (n) => call(query(n), 'GET', headers));
    print(`events in the calendar: ${created}`);
  } finally {
    agent.destroy();
    await system.stop();
    await pg.stop();
  }
  process.exit(0);
}

main().catch((err: unknown) => {
  process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});
