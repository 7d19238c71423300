/**
 * Radicale 3 (Debian's python3-radicale) as the CalDAV bench's reference server: its calendars are
 * written straight into its multifilesystem storage (10,000 PUTs take Radicale about 26 minutes), and
 * it runs on 127.0.0.1 with a config of its own, authentication off and `owner_only` rights.
 *
 * The storage layout is Radicale 3.1's (radicale/storage/multifilesystem): `<folder>/collection-root/
 * <user>/<calendar>/` is a collection; its `.Radicale.props` is a JSON object of its properties ("tag"
 * makes it a calendar); every other file whose name is a safe path component is one item, its href
 * the file name. The item cache (`.Radicale.cache/item/`) is built by Radicale when it first reads
 * an item, so the first REPORT is slow and not counted.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { freePort } from '@platform/dev-infra';
import type { CaldavEndpoint } from './client';
import type { BenchEvent } from './events';

const PYTHON = '/usr/bin/python3';

/** Runs scripts/ensure-radicale.sh (installs python3-radicale when missing); returns Radicale's version. */
export function ensureRadicale(): string {
  // From the sources (bench/caldav/) or the build (dist/bench/caldav/): the script is in the repository.
  let dir = __dirname;
  while (!existsSync(join(dir, 'scripts/ensure-radicale.sh'))) {
    if (dirname(dir) === dir) throw new Error(`scripts/ensure-radicale.sh not found above ${__dirname}`);
    dir = dirname(dir);
  }
  const ensure = spawnSync('bash', [join(dir, 'scripts/ensure-radicale.sh')], { stdio: 'inherit' });
  if (ensure.status !== 0) throw new Error('scripts/ensure-radicale.sh failed');
  const v = spawnSync(PYTHON, ['-c', 'import radicale; print(radicale.VERSION)'], { encoding: 'utf8' });
  if (v.status !== 0) throw new Error(`${PYTHON} cannot import radicale: ${v.stderr}`);
  return v.stdout.trim();
}

/** Writes a calendar collection holding `events` into Radicale's storage, each as `<uid>.ics`. */
export function writeCalendar(
  storageDir: string,
  user: string,
  calendar: string,
  events: readonly BenchEvent[],
): void {
  const dir = join(storageDir, 'collection-root', user, calendar);
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    join(dir, '.Radicale.props'),
    JSON.stringify({
      tag: 'VCALENDAR',
      'C:supported-calendar-component-set': 'VEVENT',
      'D:displayname': `CalDAV bench (${events.length} events)`,
    }),
  );
  for (const e of events) writeFileSync(join(dir, `${e.uid}.ics`), e.ics);
}

export interface RunningRadicale {
  baseUrl: string;
  pid: number;
  endpoint(user: string, calendar: string): CaldavEndpoint;
  /** SIGTERM, then SIGKILL after 5 s; resolves when the process is gone. */
  stop(): Promise<void>;
}

// prctl(PR_SET_PDEATHSIG, SIGTERM): Radicale goes when the bench goes, even on a SIGKILL of Node,
// which no exit handler sees. The parent check closes the race of a parent gone before prctl.
const LAUNCHER = [
  'import ctypes, os, runpy, signal, sys',
  'ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGTERM)',
  "if os.getppid() != int(os.environ['CALDAV_BENCH_PARENT']): sys.exit(1)",
  "sys.argv = ['radicale'] + sys.argv[1:]",
  "runpy.run_module('radicale', run_name='__main__', alter_sys=True)",
].join('\n');

/** Starts Radicale on a free port of 127.0.0.1 over `storageDir` and waits until it answers. */
export async function startRadicale(storageDir: string, workDir: string): Promise<RunningRadicale> {
  const port = await freePort();
  const config = join(workDir, 'radicale.conf');
  writeFileSync(
    config,
    [
      '[server]',
      `hosts = 127.0.0.1:${port}`,
      '[auth]',
      'type = none',
      '[rights]',
      'type = owner_only',
      '[storage]',
      `filesystem_folder = ${storageDir}`,
      '[web]',
      'type = none',
      '[logging]',
      'level = warning',
      '',
    ].join('\n'),
  );
  const child: ChildProcess = spawn(PYTHON, ['-c', LAUNCHER, '--config', config], {
    env: { ...process.env, CALDAV_BENCH_PARENT: String(process.pid) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const keep = (d: Buffer) => (output = (output + d.toString()).slice(-4000));
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  const killOnExit = () => void child.kill('SIGKILL');
  process.once('exit', killOnExit);
  const stop = async () => {
    process.removeListener('exit', killOnExit);
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
    await exited;
    clearTimeout(timer);
  };
  const baseUrl = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`Radicale exited ${child.exitCode}:\n${output}`);
    const res = await fetch(`${baseUrl}/`, { method: 'OPTIONS' }).catch(() => undefined);
    if (res?.ok) break;
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`Radicale did not answer on ${baseUrl} within 30 s:\n${output}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    baseUrl,
    pid: child.pid as number,
    endpoint: (user, calendar) => ({
      baseUrl,
      calendarPath: `/${user}/${calendar}/`,
      username: user,
      // Radicale's `auth type = none` takes any password.
      password: 'bench',
    }),
    stop,
  };
}
