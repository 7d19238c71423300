/**
 * libs/recurrence next to npm `rrule` 2.8.1 (the usual JavaScript choice), in one run:
 *
 * 1. Agreement on the cases of libs/recurrence/test-oracle/cases.ts (RFC 5545 3.8.5.3's examples, DST,
 *    month ends, leap days, BYSETPOS, BYWEEKNO, COUNT/UNTIL, EXDATE/RDATE, all-day). The checked answer
 *    of a case is python-dateutil's, or the RFC's where the case documents a dateutil deviation (the
 *    unit spec asserts the engine gives exactly these). When Debian's python3-dateutil is installed the
 *    bench runs it again and counts where the engine and dateutil differ (only the documented cases
 *    should). `rrule` gets the same lines with DTSTART added as an RDATE (dateutil's compatible mode) and
 *    the process in UTC, where its "UTC-looking" results are real instants.
 * 2. Speed, in occurrences per second, on a few everyday rules over long ranges: the engine's
 *    `expandRecurrence` (occurrence objects with local time, offset, instant), its `occurrenceIntervals`
 *    (numbers, the free/busy path), and `rrule`'s `between()`. Best of BENCH_ROUNDS (5) after a warm-up.
 *
 * Run alone: BENCH_ONLY=recurrence npm run bench, or from source with
 * `TS_NODE_PROJECT=scripts/tsconfig.typecheck.json node -r ts-node/register/transpile-only \
 *   -r ./scripts/register-paths.js bench/recurrence.bench.ts`.
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { RRuleSet, rrulestr } from 'rrule';
import {
  compileRecurrence,
  expandRecurrence,
  occurrenceIntervals,
  type EventTime,
  type RecurrenceSeries,
} from '@platform/recurrence';
import { ORACLE_CASES, type OracleCase } from '../libs/recurrence/test-oracle/cases';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const FROM = '1900-01-01T00:00:00Z';
const FAR = '9999-12-31T00:00:00Z';

const print = (line: string) => process.stdout.write(`${line}\n`);
const fmt = (n: number) => Math.round(n).toLocaleString('en-US');

/** The dateutil oracle script, found from bench/ (ts-node) or dist/bench/ (the build). */
function oracleScript(): string | null {
  for (let dir = __dirname; ; dir = dirname(dir)) {
    const script = join(dir, 'libs', 'recurrence', 'test-oracle', 'dateutil_oracle.py');
    if (existsSync(script)) return script;
    if (dirname(dir) === dir) return null;
  }
}

function engineAnswer(c: OracleCase): string[] {
  const r = expandRecurrence(
    { start: c.start, lines: c.lines },
    { from: FROM, to: c.to ?? FAR, limit: c.max },
  );
  return r.occurrences.map((o) => ('date' in o.start ? o.start.date : o.start.instant));
}

const basic = (iso: string) => iso.replace(/[-:]/g, '');

/** The case as rrule's text: a DTSTART line (TZID, Z, or a floating date) and the lines as stored. */
function rruleText(start: EventTime, lines: readonly string[]): string {
  let dtstart: string;
  if ('date' in start) dtstart = `DTSTART:${basic(start.date)}`;
  else if (start.dateTime.endsWith('Z') && !start.timeZone) dtstart = `DTSTART:${basic(start.dateTime)}`;
  else if (start.dateTime.endsWith('Z')) {
    const wall = new Intl.DateTimeFormat('sv-SE', {
      timeZone: start.timeZone,
      dateStyle: 'short',
      timeStyle: 'medium',
    }).format(new Date(start.dateTime));
    dtstart = `DTSTART;TZID=${start.timeZone}:${basic(wall.replace(' ', 'T'))}`;
  } else dtstart = `DTSTART;TZID=${start.timeZone}:${basic(start.dateTime)}`;
  return [dtstart, ...lines].join('\n');
}

function rruleSet(start: EventTime, lines: readonly string[]): RRuleSet {
  const set = rrulestr(rruleText(start, lines), { forceset: true }) as RRuleSet;
  const dtstart = set.dtstart();
  if (dtstart) set.rdate(dtstart);
  return set;
}

function rruleAnswer(c: OracleCase): string[] {
  const to = Date.parse(c.to ?? FAR);
  const out = rruleSet(c.start, c.lines)
    .all((d, i) => i < c.max && d.getTime() < to)
    .filter((d) => d.getTime() < to)
    .slice(0, c.max);
  return out.map((d) =>
    'date' in c.start ? d.toISOString().slice(0, 10) : `${d.toISOString().slice(0, 19)}Z`,
  );
}

function dateutilAnswers(): Record<string, string[] | { error: string }> | null {
  const python = '/usr/bin/python3';
  const script = oracleScript();
  if (!existsSync(python) || !script) return null;
  try {
    const out = execFileSync(python, [script], {
      input: JSON.stringify(ORACLE_CASES),
      maxBuffer: 64 * 1024 * 1024,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    return JSON.parse(out.toString('utf8')) as Record<string, string[] | { error: string }>;
  } catch {
    return null;
  }
}

function firstDifference(a: string[], b: string[]): string {
  const i = a.findIndex((v, k) => v !== b[k]);
  const at = i < 0 ? Math.min(a.length, b.length) : i;
  return `#${at + 1}: ${a[at] ?? '(none)'} vs ${b[at] ?? '(none)'} (${a.length} vs ${b.length} occurrences)`;
}

function agreement(): void {
  print(`== agreement on ${ORACLE_CASES.length} cases (libs/recurrence/test-oracle/cases.ts)`);
  const checked = new Map<string, string[]>();
  const dateutil = dateutilAnswers();
  let engineWrong = 0;
  const engineVsDateutil: string[] = [];
  for (const c of ORACLE_CASES) {
    const ours = engineAnswer(c);
    const theirs = dateutil?.[c.id];
    const answer = c.rfc?.expected ?? (Array.isArray(theirs) ? theirs : ours);
    checked.set(c.id, answer);
    if (JSON.stringify(ours) !== JSON.stringify(answer)) engineWrong++;
    if (Array.isArray(theirs) && JSON.stringify(ours) !== JSON.stringify(theirs)) engineVsDateutil.push(c.id);
  }
  if (dateutil) {
    const documented = engineVsDateutil.filter((id) => ORACLE_CASES.find((c) => c.id === id)?.rfc);
    print(
      `engine vs python-dateutil 2.8.2: ${engineVsDateutil.length} cases differ, ${documented.length} of them documented RFC 5545 deviations`,
    );
    for (const id of engineVsDateutil) print(`  - ${id}${documented.includes(id) ? '' : '  (UNDOCUMENTED)'}`);
  } else {
    print(
      'engine vs python-dateutil: not run (/usr/bin/python3 with python3-dateutil missing); answers from the spec',
    );
  }
  print(`engine vs the checked answer: ${engineWrong} cases differ`);

  const rruleDiffs: string[] = [];
  let rruleErrors = 0;
  for (const c of ORACLE_CASES) {
    let theirs: string[];
    try {
      theirs = rruleAnswer(c);
    } catch (e) {
      rruleErrors++;
      rruleDiffs.push(`${c.id}: throws ${(e as Error).message}`);
      continue;
    }
    const answer = checked.get(c.id) ?? [];
    if (JSON.stringify(theirs) !== JSON.stringify(answer)) {
      rruleDiffs.push(`${c.id}: ${firstDifference(answer, theirs)}`);
    }
  }
  print(
    `npm rrule 2.8.1 vs the checked answer: ${rruleDiffs.length} of ${ORACLE_CASES.length} cases differ (${rruleErrors} throw)`,
  );
  for (const d of rruleDiffs) print(`  - ${d}`);
}

interface Scenario {
  name: string;
  series: RecurrenceSeries;
  from: string;
  to: string;
}

const berlin = (wall: string): EventTime => ({ dateTime: wall, timeZone: 'Europe/Berlin' });
const SCENARIOS: Scenario[] = [
  {
    name: 'weekly MO,WE,FR 09:00 Berlin, 10 y',
    series: { start: berlin('2026-01-05T09:00:00'), lines: ['RRULE:FREQ=WEEKLY;BYDAY=MO,WE,FR'] },
    from: '2026-01-01T00:00:00Z',
    to: '2036-01-01T00:00:00Z',
  },
  {
    name: 'daily 08:30 New York, 10 y',
    series: {
      start: { dateTime: '2026-01-01T08:30:00', timeZone: 'America/New_York' },
      lines: ['RRULE:FREQ=DAILY'],
    },
    from: '2026-01-01T00:00:00Z',
    to: '2036-01-01T00:00:00Z',
  },
  {
    name: 'monthly last Friday Berlin, 100 y',
    series: { start: berlin('2026-01-30T09:00:00'), lines: ['RRULE:FREQ=MONTHLY;BYDAY=-1FR'] },
    from: '2026-01-01T00:00:00Z',
    to: '2126-01-01T00:00:00Z',
  },
  {
    name: 'every 15 min 9-17 workdays Berlin, 1 y',
    series: {
      start: berlin('2026-01-05T09:00:00'),
      lines: ['RRULE:FREQ=MINUTELY;INTERVAL=15;BYHOUR=9,10,11,12,13,14,15,16;BYDAY=MO,TU,WE,TH,FR'],
    },
    from: '2026-01-01T00:00:00Z',
    to: '2027-01-01T00:00:00Z',
  },
  {
    name: 'hourly UTC, 1 y',
    series: { start: { dateTime: '2026-01-01T00:00:00Z' }, lines: ['RRULE:FREQ=HOURLY'] },
    from: '2026-01-01T00:00:00Z',
    to: '2027-01-01T00:00:00Z',
  },
  {
    name: 'all-day 2nd weekday of month, 100 y',
    series: { start: { date: '2026-01-02' }, lines: ['RRULE:FREQ=MONTHLY;BYDAY=MO,TU,WE,TH,FR;BYSETPOS=2'] },
    from: '2026-01-01T00:00:00Z',
    to: '2126-01-01T00:00:00Z',
  },
];

/** Best occurrences/s over the rounds (the first call, a warm-up, is not counted). */
function rate(run: () => number): { count: number; perSecond: number } {
  let count = run();
  let best = 0;
  for (let r = 0; r < ROUNDS; r++) {
    const t0 = performance.now();
    count = run();
    best = Math.max(best, count / ((performance.now() - t0) / 1000));
  }
  return { count, perSecond: best };
}

function speed(): void {
  print(`== speed: occurrences/s, best of ${ROUNDS} rounds`);
  print(
    'scenario                                 occurrences  engine expand  engine intervals    npm rrule  expand/rrule',
  );
  for (const s of SCENARIOS) {
    const compiled = compileRecurrence(s.series);
    const expand = rate(
      () => expandRecurrence(compiled, { from: s.from, to: s.to, limit: 100_000 }).occurrences.length,
    );
    const intervals = rate(() => {
      let n = 0;
      for (const _ of occurrenceIntervals(compiled, { from: s.from, to: s.to })) n++;
      return n;
    });
    const from = new Date(s.from);
    const to = new Date(Date.parse(s.to) - 1);
    const rrule = rate(() => rruleSet(s.series.start, s.series.lines).between(from, to, true).length);
    const mismatch = rrule.count !== expand.count ? ` (rrule made ${fmt(rrule.count)})` : '';
    print(
      `${s.name.padEnd(40)} ${fmt(expand.count).padStart(11)} ${fmt(expand.perSecond).padStart(14)} ${fmt(
        intervals.perSecond,
      ).padStart(
        17,
      )} ${fmt(rrule.perSecond).padStart(12)} ${(expand.perSecond / rrule.perSecond).toFixed(1).padStart(12)}x${mismatch}`,
    );
  }
}

function main(): void {
  // rrule returns wall times dressed as UTC in the process's zone; in UTC they are real instants.
  process.env.TZ = 'UTC';
  agreement();
  speed();
}

main();
