/**
 * CalDAV time-range REPORT, Radicale against ours (issue 25). One calendar of BENCH_CALDAV_EVENTS
 * (10,000) events (bench/caldav/events.ts: a year around 2026-07-01, ~10% weekly series with EXDATEs,
 * Europe/Berlin, America/New_York and UTC), and the same client for both servers: an RFC 4791
 * calendar-query REPORT, Depth 1, getetag + calendar-data, VCALENDAR/VEVENT with a 7-day time-range,
 * sent BENCH_CALDAV_RUNS (15) times one after another after one uncounted warm-up; median, p90 and
 * the hrefs returned, which must be the same number for both (and more than 0).
 *
 * Radicale (Debian's python3-radicale, installed by scripts/ensure-radicale.sh when missing) runs on
 * 127.0.0.1 over a temporary storage the bench writes directly; its warm-up REPORT is the one that
 * builds its item cache. The loader (PUT with If-None-Match: *, BENCH_CALDAV_CONCURRENCY (8) at a
 * time) is proved on Radicale with BENCH_CALDAV_LOAD_PROBE (200) events only: PUT seeding of 10,000
 * takes Radicale about 26 minutes.
 *
 * Ours: the endpoint in CALDAV_BENCH_URL, CALDAV_BENCH_CALENDAR (the calendar's path, ending in '/'),
 * CALDAV_BENCH_USER and CALDAV_BENCH_PASSWORD, whose calendar must be empty: the bench loads the same
 * events into it (timed; target under 60 s) and runs the same REPORTs. Without them the bench starts
 * our six apps itself on the embedded stack (bench/caldav/serve-ours.ts, through the gateway unless
 * BENCH_CALDAV_VIA=calendar). `runCaldavBench({ ours })` and `measureOurs(endpoint)` do the same from another script;
 * bench/caldav/serve-ours.ts starts our apps on the embedded stack, makes the app password and runs both.
 * Exits 1 when a server answers wrong (a failed PUT, a REPORT other than 207, differing hrefs), never
 * on a missed target.
 *
 * Run alone: BENCH_ONLY=caldav npm run bench.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  loadEvents,
  measureReport,
  type CaldavEndpoint,
  type LoadFigures,
  type ReportFigures,
} from './caldav/client';
import { EVENT_COUNT, QUERY_WINDOW, benchEvents, matchingUids, type BenchEvent } from './caldav/events';
import { ensureRadicale, startRadicale, writeCalendar } from './caldav/radicale';
import { startOursForBench } from './caldav/serve-ours';
import { print } from './shared/load';
import { CpuWatch } from './shared/processes';

const EVENTS = Number(process.env.BENCH_CALDAV_EVENTS ?? EVENT_COUNT);
const RUNS = Number(process.env.BENCH_CALDAV_RUNS ?? 15);
const LOAD_PROBE = Number(process.env.BENCH_CALDAV_LOAD_PROBE ?? 200);
const CONCURRENCY = Number(process.env.BENCH_CALDAV_CONCURRENCY ?? 8);
const TARGETS = { ratio: 10, loadSeconds: 60 };
const USER = 'bench';

export type { CaldavEndpoint } from './caldav/client';

export interface OursFigures {
  load: LoadFigures;
  report: ReportFigures;
  /** Percent of all cores that processes outside this one used while the REPORTs ran. */
  othersCpu: number;
}

const ms = (v: number) => `${v.toFixed(1).padStart(8)} ms`;
const window = `${new Date(QUERY_WINDOW.start).toISOString()} .. ${new Date(QUERY_WINDOW.end).toISOString()}`;

async function timedReport(e: CaldavEndpoint): Promise<{ report: ReportFigures; othersCpu: number }> {
  const cpu = new CpuWatch();
  const from = cpu.snapshot();
  const report = await measureReport(e, QUERY_WINDOW, RUNS);
  return { report, othersCpu: cpu.othersSince(from) };
}

function printReport(label: string, f: ReportFigures, othersCpu: number): void {
  print(
    `${label.padEnd(22)} median ${ms(f.medianMs)}  p90 ${ms(f.p90Ms)}  ${f.hrefs} hrefs, ` +
      `${(f.bytes / 1024).toFixed(0)} KiB  (${f.runs} runs; the warm-up before them, not counted, took ` +
      `${(f.warmupMs / 1000).toFixed(1)} s; others used ${othersCpu}% CPU)`,
  );
}

/** Names what one set has that the other lacks, for a message. */
function difference(label: string, got: Set<string>, want: Set<string>): string {
  const extra = [...got].filter((u) => !want.has(u));
  const missing = [...want].filter((u) => !got.has(u));
  return (
    `${label}: ${got.size} returned, ${want.size} expected; ` +
    `extra ${extra.length} [${extra.slice(0, 5).join(', ')}], missing ${missing.length} [${missing.slice(0, 5).join(', ')}]`
  );
}

/**
 * The ours side: PUTs `events` into the calendar at `endpoint` (it must be empty), then the same
 * warm-up and timed REPORTs as Radicale gets. Prints its figures as it goes.
 */
export async function measureOurs(
  endpoint: CaldavEndpoint,
  events: readonly BenchEvent[] = benchEvents(EVENTS),
): Promise<OursFigures> {
  const load = await loadEvents(endpoint, events, CONCURRENCY);
  print(
    `ours: loaded ${load.events} events by PUT in ${load.seconds.toFixed(1)} s ` +
      `(${(load.events / load.seconds).toFixed(0)}/s, ${load.concurrency} at a time) into ${endpoint.baseUrl}${endpoint.calendarPath}`,
  );
  const { report, othersCpu } = await timedReport(endpoint);
  printReport('ours', report, othersCpu);
  return { load, report, othersCpu };
}

/** Both sides and the comparison; only Radicale's when `ours` is not given. Throws when a server answers wrong. */
export async function runCaldavBench(options: { ours?: CaldavEndpoint } = {}): Promise<void> {
  const version = ensureRadicale();
  const t0 = performance.now();
  const events = benchEvents(EVENTS);
  const expected = matchingUids(events, QUERY_WINDOW);
  const recurring = events.filter((e) => e.series.lines.length > 0).length;
  print(
    `${events.length} events (${recurring} weekly series), generated in ${(performance.now() - t0).toFixed(0)} ms; ` +
      `${expected.size} overlap the REPORT's window ${window} (libs/recurrence); node ${process.version}`,
  );

  const work = mkdtempSync(join(tmpdir(), 'bench-caldav-'));
  const removeWork = () => rmSync(work, { recursive: true, force: true });
  process.once('exit', removeWork);
  const storage = join(work, 'storage');
  const t1 = performance.now();
  writeCalendar(storage, USER, 'calendar', events);
  writeCalendar(storage, USER, 'load-probe', []);
  print(
    `Radicale ${version}: ${events.length} items written into its storage in ${((performance.now() - t1) / 1000).toFixed(1)} s`,
  );

  const radicale = await startRadicale(storage, work);
  let radicaleFigures: { report: ReportFigures; othersCpu: number };
  try {
    radicaleFigures = await timedReport(radicale.endpoint(USER, 'calendar'));
    printReport(`Radicale ${version}`, radicaleFigures.report, radicaleFigures.othersCpu);
    if (radicaleFigures.report.hrefs === 0) throw new Error('Radicale returned no hrefs for the window');
    const agrees =
      radicaleFigures.report.uids.size === expected.size &&
      [...expected].every((u) => radicaleFigures.report.uids.has(u));
    print(
      agrees
        ? `  Radicale returns exactly the ${expected.size} events libs/recurrence says overlap the window`
        : `  note: ${difference('Radicale against libs/recurrence', radicaleFigures.report.uids, expected)}`,
    );

    const probe = events.slice(0, LOAD_PROBE);
    const probeEndpoint = radicale.endpoint(USER, 'load-probe');
    const load = await loadEvents(probeEndpoint, probe, CONCURRENCY);
    const probeReport = await measureReport(probeEndpoint, QUERY_WINDOW, 1);
    const probeExpected = matchingUids(probe, QUERY_WINDOW);
    if (probeReport.hrefs !== probeExpected.size)
      throw new Error(difference('the loaded probe calendar', probeReport.uids, probeExpected));
    print(
      `Radicale: loadEvents PUT ${load.events} events in ${load.seconds.toFixed(1)} s ` +
        `(${(load.events / load.seconds).toFixed(0)}/s, ${load.concurrency} at a time); ` +
        `a REPORT on them returns the ${probeReport.hrefs} expected`,
    );
  } finally {
    await radicale.stop();
  }

  const r = radicaleFigures.report;
  // Ours before the summary, so that its progress lines do not land inside it.
  const ours = options.ours ? await measureOurs(options.ours, events) : undefined;
  print('');
  print(
    `calendar-query REPORT, 7-day window, ${events.length} events, getetag + calendar-data (median / p90):`,
  );
  print(`  Radicale ${version}: ${r.medianMs.toFixed(1)} / ${r.p90Ms.toFixed(1)} ms, ${r.hrefs} hrefs`);
  if (!ours) {
    print(
      '  ours: not measured (set CALDAV_BENCH_URL, CALDAV_BENCH_CALENDAR, CALDAV_BENCH_USER, CALDAV_BENCH_PASSWORD, ' +
        'or run dist/bench/caldav/serve-ours.js)',
    );
    print(`  ratio Radicale/ours: not measured (target >= ${TARGETS.ratio}x)`);
    print(`  ours load of ${events.length} events: not measured (target < ${TARGETS.loadSeconds} s)`);
    return;
  }
  const o = ours.report;
  if (o.hrefs !== r.hrefs) throw new Error(difference('ours against Radicale', o.uids, r.uids));
  const ratio = r.medianMs / o.medianMs;
  print(
    `  ours: ${o.medianMs.toFixed(1)} / ${o.p90Ms.toFixed(1)} ms, ${o.hrefs} hrefs (the same number as Radicale)`,
  );
  print(
    `  ratio Radicale/ours (medians): ${ratio.toFixed(1)}x  target >= ${TARGETS.ratio}x: ${ratio >= TARGETS.ratio ? 'met' : 'NOT met'}`,
  );
  print(
    `  ours load of ${ours.load.events} events: ${ours.load.seconds.toFixed(1)} s  target < ${TARGETS.loadSeconds} s: ` +
      `${ours.load.seconds < TARGETS.loadSeconds ? 'met' : 'NOT met'}`,
  );
}

/** Ours from CALDAV_BENCH_*: all four or none. */
function oursFromEnv(): CaldavEndpoint | undefined {
  const v = {
    baseUrl: process.env.CALDAV_BENCH_URL,
    calendarPath: process.env.CALDAV_BENCH_CALENDAR,
    username: process.env.CALDAV_BENCH_USER,
    password: process.env.CALDAV_BENCH_PASSWORD,
  };
  const given = Object.values(v).filter((x) => x !== undefined && x !== '').length;
  if (given === 0) return undefined;
  if (given < 4)
    throw new Error(
      'set all of CALDAV_BENCH_URL, CALDAV_BENCH_CALENDAR, CALDAV_BENCH_USER, CALDAV_BENCH_PASSWORD, or none',
    );
  return v as CaldavEndpoint;
}

if (require.main === module) {
  // Node's default on these signals skips 'exit' handlers, which stop Radicale and remove its storage.
  for (const s of ['SIGINT', 'SIGTERM'] as const) process.once(s, () => process.exit(130));
  // Ours: the endpoint in CALDAV_BENCH_*, else our six apps started here on the embedded stack
  // (bench/caldav/serve-ours.ts), so `npm run bench` always prints both sides and the ratio.
  (async () => {
    const given = oursFromEnv();
    if (given) return runCaldavBench({ ours: given });
    const started = await startOursForBench(
      process.env.BENCH_CALDAV_VIA === 'calendar' ? 'calendar' : 'gateway',
    );
    try {
      await runCaldavBench({ ours: started.endpoint });
    } finally {
      await started.stop();
    }
  })()
    .then(() => process.exit(0))
    .catch((err: unknown) => {
      process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
      process.exit(1);
    });
}
