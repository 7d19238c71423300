/**
 * Free/busy and slot search on a large calendar (issue 10): one account with BENCH_FREEBUSY_EVENTS
 * (100,000) events over a year, 1,000 people and 100 rooms; the built calendar app as a process on
 * embedded PostgreSQL. Prints p50/p95 of
 *   - `GET /Calendar/freebusy` for 200 people x 30 days,
 *   - `POST /Calendar/findSlots` for 20 required people x 14 days (30 min, 15 min steps, working hours),
 * one request at a time and with 4 at once, and the statement's plan (EXPLAIN ANALYZE, buffers).
 * Events are inserted with SQL (generate_series): a read bench needs rows, not 100k upserts.
 *
 * Run alone: BENCH_ONLY=freebusy npm run bench. BENCH_FREEBUSY_EVENTS, BENCH_FREEBUSY_REQUESTS (60).
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Pool } from 'pg';
import { KafkaMockCluster, launchSystem, runAdmin, startEmbeddedPostgres } from '@platform/dev-infra';
import { CONTRACTS, DEAD_LETTER_TOPIC } from '@platform/messaging';
import { busyStatement } from '../apps/calendar/src/availability/availability.repository';
import type { AccountId } from '../apps/calendar/src/tenancy/tenant-ids';
import { print } from './shared/load';

const DIST = resolve(__dirname, '..');
const EVENTS = Number(process.env.BENCH_FREEBUSY_EVENTS ?? 100_000);
const REQUESTS = Number(process.env.BENCH_FREEBUSY_REQUESTS ?? 60);
const YEAR_FROM = Date.UTC(2026, 0, 1);
const DAY = 86_400_000;
/** The 30 days the free/busy figure asks for (mid-year, inside the seeded year). */
const RANGE = { from: new Date(YEAR_FROM + 150 * DAY), to: new Date(YEAR_FROM + 180 * DAY) };

function percentile(sorted: number[], q: number): number {
  return sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] : NaN;
}

async function timed(
  label: string,
  send: () => Promise<Response>,
  concurrency: number,
  check: (body: unknown) => string | undefined,
): Promise<{ p50: number; p95: number }> {
  const latencies: number[] = [];
  let next = 0;
  let problem: string | undefined;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < REQUESTS && !problem) {
        next++;
        const t = performance.now();
        const res = await send();
        const body = (await res.json()) as unknown;
        latencies.push(performance.now() - t);
        if (res.status !== 200)
          problem = `${label} answered ${res.status}: ${JSON.stringify(body).slice(0, 300)}`;
        else problem = check(body);
      }
    }),
  );
  if (problem) throw new Error(problem);
  latencies.sort((a, b) => a - b);
  const f = { p50: percentile(latencies, 0.5), p95: percentile(latencies, 0.95) };
  print(
    `${label.padEnd(58)} p50 ${f.p50.toFixed(1).padStart(7)} ms  p95 ${f.p95.toFixed(1).padStart(7)} ms  ` +
      `(${latencies.length} requests, ${concurrency} at once)`,
  );
  return f;
}

async function main(): Promise<void> {
  const pg = await startEmbeddedPostgres({
    dataDir: mkdtempSync(join(tmpdir(), 'bench-freebusy-')),
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
    env: { LOG_LEVEL: 'warn' },
  });
  const pool = new Pool({ connectionString: databaseUrl, max: 2 });
  try {
    const seed = runAdmin(DIST, 'calendar', ['seed-demo'], env) as {
      accountId: string;
      productId: string;
      apiKey: string;
    };
    const t0 = performance.now();
    // Events of 30 min to 3 h starting on the quarter hour over the year; one owner and 0-3 assignees
    // among 1,000 people, a room among 100 in half of them; 5% tentative, 5% cancelled.
    await pool.query(
      `INSERT INTO calendar.events (account_id, product_id, entity_type, entity_id, version, title,
         starts_at, ends_at, status, owner_person_id, assignee_ids, person_ids, resources, resource_ids)
       SELECT $1, $2, 'bench', 'B-' || g, 1, 'Bench ' || g, s, s + ((1 + g % 6) * 30) * interval '1 minute',
              CASE WHEN g % 20 = 0 THEN 'tentative' WHEN g % 20 = 1 THEN 'cancelled' ELSE 'confirmed' END,
              'p' || (g % 1000), a, array_prepend('p' || (g % 1000), a),
              CASE WHEN g % 2 = 0 THEN jsonb_build_array(jsonb_build_object('type', 'room', 'id', 'r' || (g % 100)))
                   ELSE '[]'::jsonb END,
              CASE WHEN g % 2 = 0 THEN ARRAY['room:r' || (g % 100)] ELSE '{}'::text[] END
         FROM (SELECT g, $4::timestamptz + floor(random() * 365 * 96) * interval '15 minutes' AS s
                 FROM generate_series(1, $3::int) g) t,
              LATERAL (SELECT coalesce(array_agg('p' || ((g * 7 + i * 131) % 1000)), '{}') AS a
                         FROM generate_series(1, g % 4) i) x`,
      [seed.accountId, seed.productId, EVENTS, new Date(YEAR_FROM).toISOString()],
    );
    await pool.query('ANALYZE calendar.events');
    print(
      `seeded ${EVENTS} events (1,000 people, 100 rooms, a year) in ${((performance.now() - t0) / 1000).toFixed(1)} s; ` +
        `node ${process.version}`,
    );

    const base = system.apps.calendar.url;
    const headers = { API_KEY: seed.apiKey, AccountId: seed.accountId, ProductId: seed.productId };
    const people = Array.from({ length: 200 }, (_, i) => `p${i * 5}`);
    const freebusyUrl =
      `${base}/Calendar/freebusy?people=${people.join(',')}` +
      `&from=${RANGE.from.toISOString()}&to=${RANGE.to.toISOString()}`;
    const st = busyStatement(seed.accountId as AccountId, { people, resources: [], ...RANGE });
    const plan = await pool.query<{ 'QUERY PLAN': string }>(
      `SET search_path = calendar; EXPLAIN (ANALYZE, BUFFERS) ${st.sql}`.replace(/\$(\d+)/g, (_, n: string) =>
        literal(st.params[Number(n) - 1]),
      ),
    );
    const lines = (plan as unknown as { rows: { 'QUERY PLAN': string }[] }[])[1].rows.map(
      (r) => r['QUERY PLAN'],
    );
    print('free/busy statement, 200 people x 30 days (EXPLAIN ANALYZE):');
    for (const l of lines.filter((l) => /Scan|Execution|Planning|Buffers: shared/.test(l)).slice(0, 8)) {
      print(`  ${l.trim()}`);
    }
    const freebusyCheck = (body: unknown) => {
      const items = (body as { value?: { items?: { busy: unknown[] }[] } }).value?.items;
      return items?.length === 200 && items.some((i) => i.busy.length > 0)
        ? undefined
        : `free/busy answered ${items?.length} participants, or no busy time at all`;
    };
    for (const c of [1, 4]) {
      await timed(
        'GET /Calendar/freebusy, 200 people x 30 days',
        () => fetch(freebusyUrl, { headers }),
        c,
        freebusyCheck,
      );
    }

    const slotsBody = JSON.stringify({
      participants: Array.from({ length: 20 }, (_, i) => ({
        kind: 'person',
        id: `p${i * 50}`,
        required: true,
        working_hours: {
          time_zone: i % 2 ? 'Europe/Berlin' : 'Asia/Almaty',
          days: Object.fromEntries(
            ['mon', 'tue', 'wed', 'thu', 'fri'].map((d) => [d, [{ start: '08:00', end: '19:00' }]]),
          ),
        },
      })),
      duration_minutes: 30,
      granularity_minutes: 15,
      range: { from: RANGE.from.toISOString(), to: new Date(RANGE.from.getTime() + 14 * DAY).toISOString() },
      max_results: 50,
    });
    const slotsCheck = (body: unknown) =>
      Array.isArray((body as { value?: { items?: unknown[] } }).value?.items)
        ? undefined
        : `findSlots answered no item list: ${JSON.stringify(body).slice(0, 200)}`;
    for (const c of [1, 4]) {
      await timed(
        'POST /Calendar/findSlots, 20 required people x 14 days',
        () =>
          fetch(`${base}/Calendar/findSlots`, {
            method: 'POST',
            headers: { ...headers, 'content-type': 'application/json' },
            body: slotsBody,
          }),
        c,
        slotsCheck,
      );
    }
  } finally {
    await pool.end();
    await system.stop();
    await pg.stop();
  }
  process.exit(0);
}

/** A bind value as an SQL literal, for EXPLAIN of the app's own statement. */
function literal(v: unknown): string {
  if (Array.isArray(v)) return `ARRAY[${v.map(literal).join(',')}]`;
  if (v instanceof Date) return `'${v.toISOString()}'`;
  return `'${String(v).replaceAll("'", "''")}'`;
}

main().catch((err: unknown) => {
  process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});
