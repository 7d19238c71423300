/**
 * Issue 9's yardstick: what the shared request pipeline, the calendar's hot paths and the relay cost,
 * each figure side by side in one run on this machine and divided by a plain Nest 12 hello-world
 * measured in the same run.
 *
 * Every server is its own process from the build: the bare Node and plain Nest hello-worlds
 * (bench/shared/hello-server.ts) and the six apps (launchSystem) on embedded PostgreSQL and the
 * librdkafka mock broker (which runs on native threads inside this process). The load comes from this
 * process with the keep-alive client of the other benches (bench/shared/load.ts): BENCH_CONCURRENCY (32)
 * connections, a 2 s warm-up, then BENCH_SECONDS (10) per figure. On 2 cores the client takes one, so
 * the fastest figures are bounded by the client as much as by the server: read ratios, not req/s.
 *
 * 1. bare Node `http` and plain Nest hello-worlds (the references);
 * 2. `GET /health/live` of every app, directly;
 * 3. the calendar's week query (8 events in the table) directly, as a product (API_KEY) and as a person
 *    (PlatformSession of an account member);
 * 4. calendar upserts directly: creates (new triple) and updates (existing triple, current version);
 * 5. the outbox-relay app's drain rate against a raw kafkajs producer to the same broker, its p99
 *    commit-to-publish at a steady BENCH_RELAY_RATE (1,000) events/s, and how long a burst waits for
 *    its first publication when the planner's statistics predate it, as they usually do in service
 *    (bench/shared/relay-figures.ts);
 * 6. each app's RSS after all that.
 * A final table gives every figure with its ratio, its target from issue 9 and whether it is met. A
 * missed target is a figure, not a failure; a non-2xx answer (or an unpublished event) is an error and
 * makes the process exit 1 after printing everything.
 *
 * The development machine is shared: next to each figure is the share of the CPU that processes outside
 * this bench used meanwhile (/proc), and the table stars a figure taken above DISTURBED%. BENCH_ROUNDS
 * (1) measures everything that many times and keeps each figure's best round.
 *
 * Run alone: BENCH_ONLY=pipeline npm run bench. BENCH_RELAY_EVENTS (20000) sizes the drain,
 * BENCH_RELAY_RATE (1000) the steady rate of the latency figure.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Pool } from 'pg';
import { SignJWT, exportSPKI, generateKeyPair } from 'jose';
import {
  APPS,
  KafkaMockCluster,
  freePort,
  launchSystem,
  runAdmin,
  startEmbeddedPostgres,
  type AppName,
} from '@platform/dev-infra';
import { CONTRACTS, DEAD_LETTER_TOPIC } from '@platform/messaging';
import { GATEWAY, service } from '@platform/registry';
import {
  CONCURRENCY,
  LoadGenerator,
  SECONDS,
  WARMUP_SECONDS,
  isSuccess,
  print,
  type Figure,
  type Outcome,
} from './shared/load';
import { RelayConfig } from '../apps/outbox-relay/src/config/relay.config';
import { measureWithWrk, wrkPath } from './shared/wrk';
import { CpuWatch, Processes, memoryOf, waitFor } from './shared/processes';
import { OutboxProbe, calendarChanges, rawProducerRate, type Drain, type Rate } from './shared/relay-figures';

const DIST = resolve(__dirname, '..');
const RELAY_EVENTS = Number(process.env.BENCH_RELAY_EVENTS ?? 20000);
const RELAY_RATE = Number(process.env.BENCH_RELAY_RATE ?? 1000);
/** Every figure is measured once per round; the table takes each figure's best (least disturbed) round. */
const ROUNDS = Math.max(1, Number(process.env.BENCH_ROUNDS ?? 1));
/** The relay app's default batch; the raw producer sends batches of the same size. */
const RELAY_BATCH = new RelayConfig().RELAY_BATCH_SIZE;
const RELAY_TIMEOUT_MS = 300_000;
/** How long the stale-statistics burst may wait for its first publication before the claim is cancelled. */
const FIRST_PUBLISH_CAP_MS = 30_000;
const SESSION_ISSUER = 'https://id.bench';
/** The account member whose PlatformSession reads the person view; every seeded event involves them. */
const MEMBER = 'bench-member';
/** Monday of the week the 8 events fill, and the range both views ask for. */
const WEEK_FROM = Date.UTC(2026, 11, 7);
const WEEK = `from=${new Date(WEEK_FROM).toISOString()}&to=${new Date(WEEK_FROM + 7 * 86400000).toISOString()}`;

/** Other processes' share of the CPU above which a figure is flagged as disturbed. */
const DISTURBED = 10;

const TARGETS = { health: 0.8, week: 0.4, write: 0.15, relay: 0.5, p99Ms: 50, rssMiB: 250 };

/** Apps in the order issue 9 lists them: the gateway first. */
const ORDER: AppName[] = [GATEWAY.name, ...APPS.filter((a) => a !== GATEWAY.name)];

interface Row {
  what: string;
  value: string;
  ratio: string;
  target: string;
  met: string;
}

const ratioText = (x: number) => `${x.toFixed(2)}`;
const metText = (ok: boolean) => (ok ? 'yes' : 'no');

function table(rows: Row[]): string[] {
  const head: Row = {
    what: 'what',
    value: 'req/s (or msgs/s)',
    ratio: 'ratio',
    target: 'target',
    met: 'met?',
  };
  const cols = ['what', 'value', 'ratio', 'target', 'met'] as const;
  const width = Object.fromEntries(
    cols.map((c) => [c, Math.max(...[head, ...rows].map((r) => r[c].length))]),
  ) as Record<(typeof cols)[number], number>;
  const line = (r: Row) => `| ${cols.map((c) => r[c].padEnd(width[c])).join(' | ')} |`;
  return [line(head), `| ${cols.map((c) => '-'.repeat(width[c])).join(' | ')} |`, ...rows.map(line)];
}

function percentile(sorted: number[], q: number): number {
  return sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] : NaN;
}

async function main(): Promise<void> {
  const pg = await startEmbeddedPostgres({
    dataDir: mkdtempSync(join(tmpdir(), 'bench-pipeline-')),
    persistent: false,
  });
  const databaseUrl = await pg.createDatabase('bench');
  const cluster = KafkaMockCluster.start(1);
  for (const t of [...CONTRACTS.keys(), DEAD_LETTER_TOPIC]) cluster.createTopic(t, 3);
  const env = { DATABASE_URL: databaseUrl, KAFKA_BROKERS: cluster.brokers, NODE_ENV: 'test' };
  const keys = await generateKeyPair('RS256');
  const procs = new Processes();
  const lg = new LoadGenerator();
  const cpu = new CpuWatch();
  const pool = new Pool({ connectionString: databaseUrl, max: 8 });
  let problems = 0;
  /** The last lines each app wrote (warnings and errors at LOG_LEVEL=warn), shown when something fails. */
  const appOutput = new Map<AppName, string[]>();
  const system = await launchSystem({
    distDir: DIST,
    databaseUrl,
    kafkaBrokers: cluster.brokers,
    ports: 'free',
    nodeEnv: 'test',
    env: { LOG_LEVEL: 'warn' },
    onOutput: (app, line) => {
      const lines = appOutput.get(app) ?? [];
      lines.push(line);
      appOutput.set(app, lines.slice(-30));
    },
    appEnv: {
      calendar: {
        SESSION_PUBLIC_KEY_PEM: await exportSPKI(keys.publicKey),
        SESSION_ISSUER,
        // The bench's writes must meet the upsert path, not the rate limiter's 429.
        CALENDAR_WRITE_LIMIT: '100000000',
      },
      'outbox-relay': { RELAY_BATCH_SIZE: String(RELAY_BATCH) },
    },
  });
  try {
    const ports = { node: await freePort(), nest: await freePort(), nodePg: await freePort() };
    const hello = {
      node: procs.helloWorld(DIST, 'node', ports.node),
      nest: procs.helloWorld(DIST, 'nest', ports.nest),
    };
    await Promise.all([
      waitFor(`http://127.0.0.1:${ports.node}/`, 'node hello-world'),
      waitFor(`http://127.0.0.1:${ports.nest}/`, 'nest hello-world'),
    ]);

    // ---- the calendar's tenant, its 8 events, and the two callers of the week query ----------------
    const seed = runAdmin(DIST, 'calendar', ['seed-demo'], env) as {
      accountId: string;
      productId: string;
      apiKey: string;
    };
    const calendar = system.apps.calendar.url;
    const product = { API_KEY: seed.apiKey, AccountId: seed.accountId, ProductId: seed.productId };
    const session = await new SignJWT({ account_id: seed.accountId, roles: ['member'] })
      .setProtectedHeader({ alg: 'RS256' })
      .setSubject(MEMBER)
      .setIssuer(SESSION_ISSUER)
      .setAudience('calendar')
      .setIssuedAt()
      .setExpirationTime('2h')
      .sign(keys.privateKey);
    const person = { PlatformSession: session };
    const upsert = new URL(`${calendar}/Calendar/upsert`);
    for (let i = 0; i < 8; i++) {
      const start = WEEK_FROM + i * 20 * 3600000 + 9 * 3600000;
      const out = await lg.call(
        {
          url: upsert,
          method: 'POST',
          headers: product,
          body: JSON.stringify({
            entity_type: 'meeting',
            entity_id: `W-${i}`,
            version: 0,
            title: `Week event ${i}`,
            start: { date_time: new Date(start).toISOString(), time_zone: 'Asia/Almaty' },
            end: { date_time: new Date(start + 3600000).toISOString(), time_zone: 'Asia/Almaty' },
            owner: i % 2 ? MEMBER : `person-${i}`,
            assignees: i % 2 ? [`person-${i}`] : [MEMBER],
            resources: [{ type: 'room', id: `r-${i}` }],
          }),
        },
        'seed week event',
      );
      if (out.status !== 201) throw new Error(`seeding week event ${i} answered ${out.status}`);
    }
    const weekQuery = new URL(`${calendar}/Calendar/events?${WEEK}&limit=50`);
    // The database-bound ceiling: bare Node + pg running the product view's own statement.
    procs.helloWorld(DIST, 'node-pg', ports.nodePg, [
      databaseUrl,
      seed.accountId,
      new Date(WEEK_FROM).toISOString(),
      new Date(WEEK_FROM + 7 * 86400000).toISOString(),
    ]);
    const ceiling = new URL(`http://127.0.0.1:${ports.nodePg}/`);
    await waitFor(ceiling.toString(), 'bare node + pg week query');
    {
      const res = await fetch(ceiling);
      const items = ((await res.json()) as { value?: { items?: unknown[] } }).value?.items;
      if (items?.length !== 8)
        throw new Error(`the bare node + pg week query returned ${items?.length} rows, not 8`);
    }
    for (const [view, headers] of [
      ['product', product],
      ['person', person],
    ] as const) {
      const res = await fetch(weekQuery, { headers });
      const text = await res.text();
      const total = (JSON.parse(text) as { value?: { total?: number } }).value?.total;
      if (res.status !== 200 || total !== 8) {
        throw new Error(`week query (${view} view) answered ${res.status} with total ${total}: ${text}`);
      }
      print(`week query, ${view} view: 200, 8 of 8 events, ${Buffer.byteLength(text)} bytes`);
    }
    print(
      `node ${process.version}; ${SECONDS} s per figure after ${WARMUP_SECONDS} s warm-up, ` +
        `${CONCURRENCY} concurrent keep-alive connections; apps NODE_ENV=test LOG_LEVEL=warn`,
    );
    print('');

    // ---- HTTP figures --------------------------------------------------------------------------------
    // GETs go through wrk when installed (bench/shared/wrk.ts): the Node client saturates near the
    // hello-worlds' rate. Writes stay on the Node client (each body differs; they are far below its ceiling).
    const wrkBin = wrkPath();
    print(
      wrkBin
        ? `GET figures: wrk (${wrkBin}); writes: the Node client`
        : 'all figures: the Node client (no wrk)',
    );
    type Next = ((n: number, w: number) => Promise<Outcome>) & {
      get?: { url: URL; headers: Record<string, string> };
    };
    const get = (url: URL, headers: Record<string, string> = {}, label = ''): Next =>
      Object.assign((): Promise<Outcome> => lg.call({ url, headers }, label), { get: { url, headers } });

    // Creates: a new triple per request. Updates: each worker walks its own share of the created
    // triples, sending each one's current version, so no two requests race for one triple (no 409).
    // Both land in 2027, outside the week the queries read.
    const day = (n: number) => new Date(Date.UTC(2027, 0, 1) + (n % 60) * 86400000 + (n % 9) * 3600000);
    const eventBody = (n: number, version: number) =>
      JSON.stringify({
        entity_type: 'deal',
        entity_id: `D-${n}`,
        version,
        title: `Deal ${n} rev ${version}`,
        start: { date_time: day(n).toISOString(), time_zone: 'Asia/Almaty' },
        owner: `person-${n % 50}`,
        assignees: [`person-${(n + 1) % 50}`],
        resources: [{ type: 'room', id: `r-${n % 20}` }],
      });
    const created: number[] = [];
    const versions = new Map<number, number>();
    let nextTriple = 0;
    const create = async (): Promise<Outcome> => {
      const n = nextTriple++;
      const out = await lg.call(
        { url: upsert, method: 'POST', headers: product, body: eventBody(n, 0) },
        'create',
      );
      if (out.status === 201) {
        created.push(n);
        versions.set(n, 1);
      } else if (isSuccess(out.status)) {
        lg.errors++;
        print(`  ! create of D-${n} answered ${out.status}, not 201`);
      }
      return out;
    };
    const cursor = Array.from({ length: CONCURRENCY }, (_, w) => w);
    const update = async (_n: number, w: number): Promise<Outcome> => {
      if (created.length < CONCURRENCY) throw new Error(`only ${created.length} events created`);
      const n = created[cursor[w]];
      cursor[w] = cursor[w] + CONCURRENCY < created.length ? cursor[w] + CONCURRENCY : w;
      const version = versions.get(n) as number;
      const out = await lg.call(
        { url: upsert, method: 'POST', headers: product, body: eventBody(n, version) },
        'update',
      );
      if (out.status === 200) versions.set(n, version + 1);
      else if (isSuccess(out.status)) {
        lg.errors++;
        print(`  ! update of D-${n} answered ${out.status}, not 200`);
      }
      return out;
    };
    const targets: [key: string, name: string, next: Next][] = [
      ['node', 'bare node http hello-world', get(new URL(`http://127.0.0.1:${ports.node}/`))],
      ['nest', 'plain nest 12 hello-world', get(new URL(`http://127.0.0.1:${ports.nest}/`))],
      ...ORDER.map((app): [string, string, Next] => [
        `live:${app}`,
        `${app} GET /health/live`,
        get(new URL(`${system.apps[app].url}${service(app).health}/live`), {}, `${app} live`),
      ]),
      ['week:ceiling', 'bare node + pg, the week statement', get(ceiling, {}, 'node + pg')],
      ['week:product', 'calendar week query, product view', get(weekQuery, product, 'product view')],
      ['week:person', 'calendar week query, person view', get(weekQuery, person, 'person view')],
      ['create', 'calendar upsert, create (new triple)', create],
      ['update', 'calendar upsert, update (current version)', update],
    ];

    // ---- the relay -----------------------------------------------------------------------------------
    const calendarSchema = service('calendar').schema;
    if (!calendarSchema) throw new Error('the registry gives the calendar no schema');
    const outbox = new OutboxProbe(pool, calendarSchema);
    const watched = async <T>(work: () => Promise<T>): Promise<[T, number]> => {
      const from = cpu.snapshot();
      const result = await work();
      return [result, cpu.othersSince(from)];
    };

    let raw: (Rate & { others: number }) | undefined;
    let drain: (Drain & { others: number }) | undefined;
    let steady: { p99: number; others: number } | undefined;
    /** The slowest first publication after a burst, across rounds: a stall is the relay's, not noise. */
    let firstPublish: { ms: number; others: number } | undefined;
    let relayFailure: string | undefined;
    const relayRound = async (): Promise<void> => {
      await outbox.drained(RELAY_TIMEOUT_MS); // the upserts' own events first
      const [r, rawOthers] = await watched(() =>
        rawProducerRate(cluster.brokers, calendarChanges(RELAY_EVENTS), RELAY_BATCH),
      );
      print(
        `${'raw kafkajs producer'.padEnd(40)} ${String(r.perSecond).padStart(6)} msgs/s  ` +
          `(${r.messages} messages in ${r.seconds.toFixed(2)} s, batches of ${RELAY_BATCH}, acks=-1, ` +
          `one in flight, others' CPU ${rawOthers}%)`,
      );
      if (!raw || r.perSecond > raw.perSecond) raw = { ...r, others: rawOthers };
      const [d, drainOthers] = await watched(() =>
        outbox.drainRate(calendarChanges(RELAY_EVENTS), RELAY_TIMEOUT_MS),
      );
      print(
        `${'outbox-relay app, drain'.padEnd(40)} ${String(d.perSecond).padStart(6)} msgs/s  ` +
          `(${d.messages} events committed in one transaction, published in ${d.seconds.toFixed(2)} s ` +
          `from the commit, ${d.batches} batches of up to ${RELAY_BATCH}, cycle median ` +
          `${d.medianCycleMs.toFixed(0)} ms, slowest ${d.slowestCycleMs.toFixed(0)} ms, ${d.dead} dead-lettered, ` +
          `others' CPU ${drainOthers}%)`,
      );
      problems += d.dead + (RELAY_EVENTS - d.messages - d.dead);
      if (!drain || d.perSecond > drain.perSecond) drain = { ...d, others: drainOthers };
      const [s, steadyOthers] = await watched(() =>
        outbox.latencyAtRate(calendarChanges(RELAY_RATE * SECONDS), RELAY_RATE, RELAY_TIMEOUT_MS),
      );
      const lat = s.latencies;
      const p99 = percentile(lat, 0.99);
      print(
        `${'outbox-relay app, commit-to-publish'.padEnd(40)} p50 ${percentile(lat, 0.5).toFixed(1)} ms  ` +
          `p99 ${p99.toFixed(1)} ms  max ${(lat.at(-1) ?? NaN).toFixed(1)} ms  ` +
          `(${lat.length} events, one per transaction, offered at ${s.achievedRate}/s for ${SECONDS} s, ` +
          `${s.dead} dead-lettered, others' CPU ${steadyOthers}%)`,
      );
      problems += s.dead + s.unsent;
      if (s.achievedRate < RELAY_RATE * 0.95) {
        print(`  note: the writer reached only ${s.achievedRate} of ${RELAY_RATE} events/s`);
      }
      if (!steady || p99 < steady.p99) steady = { p99, others: steadyOthers };
      const [f, firstOthers] = await watched(() =>
        outbox.firstPublish(calendarChanges(RELAY_EVENTS), FIRST_PUBLISH_CAP_MS, RELAY_TIMEOUT_MS),
      );
      print(
        `${'outbox-relay app, burst, stale stats'.padEnd(40)} first batch published ` +
          (f.firstMs === undefined
            ? `not within ${FIRST_PUBLISH_CAP_MS / 1000} s (the claim still ran; ${f.cancelled} cancelled)`
            : `${f.firstMs.toFixed(0)} ms`) +
          ` after the commit of ${RELAY_EVENTS} events, statistics taken with every row sent ` +
          `(others' CPU ${firstOthers}%)`,
      );
      const firstMs = f.firstMs ?? Infinity;
      if (!firstPublish || firstMs > firstPublish.ms) firstPublish = { ms: firstMs, others: firstOthers };
    };
    /** What a stalled relay looks like from outside: its process, its last words, its outbox rows. */
    const relayDiagnosis = async (): Promise<string[]> => {
      const p = system.apps['outbox-relay'].process;
      return [
        p.exitCode !== null || p.signalCode !== null
          ? `outbox-relay process exited (code ${p.exitCode}, signal ${p.signalCode})`
          : `outbox-relay process ${p.pid} is running`,
        ...(await outbox.unsentSummary()),
        ...(await outbox.activity()),
        `outbox-relay's last output lines:`,
        ...(appOutput.get('outbox-relay') ?? ['(none)']).map((l) => `  ${l.slice(0, 400)}`),
      ];
    };

    // ---- rounds: every figure once per round, the best round of each in the table ------------------
    const figures = new Map<string, Figure & { others: number }>();
    for (let round = 1; round <= ROUNDS; round++) {
      if (ROUNDS > 1) print(`-- round ${round} of ${ROUNDS}`);
      for (const [key, name, next] of targets) {
        let others = 0;
        const watch = () => {
          const from = cpu.snapshot();
          return () => `others' CPU ${(others = cpu.othersSince(from))}%`;
        };
        let f: Figure;
        if (wrkBin && next.get) {
          f = await measureWithWrk(wrkBin, name, next.get.url, next.get.headers, watch);
          lg.errors += f.errors;
        } else {
          f = await lg.measure(name, next, watch);
        }
        const best = figures.get(key);
        if (!best || f.rps > best.rps) figures.set(key, { ...f, others });
      }
      print(`events in the calendar: ${created.length + 8}`);

      if (relayFailure) {
        print('relay figures skipped: the relay failed in an earlier round');
      } else {
        try {
          await relayRound();
        } catch (err) {
          relayFailure = (err as Error).message;
          problems++;
          print(`  ! relay: ${relayFailure}`);
          for (const line of await relayDiagnosis()) print(`    ${line}`);
        }
      }
      print('');
    }
    for (const app of ORDER) {
      const p = system.apps[app].process;
      if (p.exitCode !== null || p.signalCode !== null) {
        problems++;
        print(
          `  ! ${app} exited during the run (code ${p.exitCode}, signal ${p.signalCode}); its last output:`,
        );
        for (const l of appOutput.get(app) ?? []) print(`    ${l.slice(0, 400)}`);
      }
    }

    // ---- memory ----------------------------------------------------------------------------------------
    const memory = new Map(ORDER.map((app) => [app, memoryOf(system.apps[app].process.pid)]));
    // The same Node with the same load, nothing of ours in it: what part of an app's RSS is the runtime's.
    const helloMemory = memoryOf(hello.nest.pid);
    for (const [app, m] of [...memory, ['plain nest hello-world', helloMemory] as const]) {
      print(
        `${`${app} RSS after the run`.padEnd(40)} ${m ? `${m.rssMiB.toFixed(0)} MiB (peak ${m.peakMiB.toFixed(0)} MiB)` : 'unknown (process gone)'}`,
      );
    }
    print('');

    // ---- the table -------------------------------------------------------------------------------------
    // A figure taken while other processes used more than DISTURBED% of the CPU is starred.
    const star = (others: number) => (others > DISTURBED ? ' *' : '');
    const nest = figures.get('nest') as Figure & { others: number };
    const rows: Row[] = [];
    const httpRow = (key: string, what: string, target?: number) => {
      const f = figures.get(key) as Figure & { others: number };
      const r = f.rps / nest.rps;
      rows.push({
        what,
        value: `${f.rps}${star(f.others)}`,
        ratio: ratioText(r),
        target: target === undefined ? 'reference' : `>= ${ratioText(target)}`,
        met: target === undefined ? '' : metText(r >= target),
      });
    };
    httpRow('node', 'bare Node `http` hello-world');
    rows.push({
      what: 'plain Nest 12 + express hello-world',
      value: `${nest.rps}${star(nest.others)}`,
      ratio: '1.00',
      target: 'THE reference',
      met: '',
    });
    for (const app of ORDER) httpRow(`live:${app}`, `${app} \`GET /health/live\``, TARGETS.health);
    httpRow('week:ceiling', 'bare Node `http` + pg, the week statement (DB-bound ceiling)');
    httpRow('week:product', 'calendar week query, product view (API_KEY)', TARGETS.week);
    httpRow('week:person', 'calendar week query, person view (PlatformSession)', TARGETS.week);
    {
      const ceilingRps = (figures.get('week:ceiling') as Figure).rps;
      for (const [key, view] of [
        ['week:product', 'product'],
        ['week:person', 'person'],
      ] as const) {
        rows.push({
          what: `calendar week query, ${view} view, against the DB-bound ceiling`,
          value: `${(figures.get(key) as Figure).rps}`,
          ratio: `${ratioText((figures.get(key) as Figure).rps / ceilingRps)} of ceiling`,
          target: 'none set',
          met: '',
        });
      }
    }
    httpRow('create', 'calendar upsert, create (new triple)', TARGETS.write);
    httpRow('update', 'calendar upsert, update (current version)', TARGETS.write);
    const failed = relayFailure ? 'failed (see above)' : 'not measured';
    rows.push({
      what: `raw kafkajs producer (batches of ${RELAY_BATCH})`,
      value: raw ? `${raw.perSecond} msgs/s${star(raw.others)}` : failed,
      ratio: '1.00',
      target: 'relay reference',
      met: '',
    });
    const relayRatio = raw && drain ? drain.perSecond / raw.perSecond : NaN;
    rows.push({
      what: `outbox-relay drain of ${RELAY_EVENTS} events`,
      value: drain ? `${drain.perSecond} msgs/s${star(drain.others)}` : failed,
      ratio: drain ? `${ratioText(relayRatio)} of raw` : '',
      target: `>= ${ratioText(TARGETS.relay)} of raw`,
      met: metText(relayRatio >= TARGETS.relay),
    });
    rows.push({
      what: `relay p99 commit-to-publish at ${RELAY_RATE} events/s`,
      value: steady ? `${steady.p99.toFixed(1)} ms${star(steady.others)}` : failed,
      ratio: '',
      target: `< ${TARGETS.p99Ms} ms`,
      met: metText(steady !== undefined && steady.p99 < TARGETS.p99Ms),
    });
    rows.push({
      what: `relay first publish after a ${RELAY_EVENTS}-event burst, stale stats (worst round)`,
      value: !firstPublish
        ? failed
        : Number.isFinite(firstPublish.ms)
          ? `${firstPublish.ms.toFixed(0)} ms${star(firstPublish.others)}`
          : `> ${FIRST_PUBLISH_CAP_MS / 1000} s (stalled)`,
      ratio: '',
      target: 'none set',
      met: '',
    });
    for (const [app, m] of memory) {
      rows.push({
        what: `${app} RSS after the run`,
        value: m ? `${m.rssMiB.toFixed(0)} MiB` : 'unknown',
        ratio: '',
        target: `<= ${TARGETS.rssMiB} MiB`,
        met: m ? metText(m.rssMiB <= TARGETS.rssMiB) : 'no',
      });
    }
    rows.push({
      what: 'plain Nest hello-world RSS after the run',
      value: helloMemory ? `${helloMemory.rssMiB.toFixed(0)} MiB` : 'unknown',
      ratio: '',
      target: 'reference',
      met: '',
    });
    const disturbed = [...figures.values(), raw, drain, steady, firstPublish].filter(
      (f) => f !== undefined && f.others > DISTURBED,
    ).length;
    print(
      `${ROUNDS > 1 ? `best of ${ROUNDS} rounds per figure; ` : ''}ratios: HTTP figures to the plain Nest ` +
        `hello-world (${nest.rps} req/s), the relay to the raw producer` +
        (disturbed
          ? `; * = ${disturbed} figure(s) measured while other processes used more than ${DISTURBED}% of the ` +
            `CPU: run again on a quiet machine (or with BENCH_ROUNDS=3)`
          : ''),
    );
    for (const l of table(rows)) print(l);
  } finally {
    lg.destroy();
    procs.stopAll();
    await pool.end();
    await system.stop();
    await pg.stop();
  }
  const errors = lg.errors + problems;
  print('');
  print(`errors: ${lg.errors} non-2xx answers, ${problems} events unpublished or dead-lettered`);
  process.exit(errors ? 1 : 0);
}

main().catch((err: unknown) => {
  process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});
