import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { freePort } from './embedded-postgres';

export const APPS = [
  'calendar',
  'public-status',
  'lending',
  'verification',
  'outbox-relay',
  'gateway',
] as const;
export type AppName = (typeof APPS)[number];

export const DEFAULT_PORTS: Record<AppName, number> = {
  gateway: 3000,
  calendar: 3001,
  'public-status': 3002,
  lending: 3003,
  verification: 3004,
  'outbox-relay': 3005,
};

export interface LaunchOptions {
  /** Built output (dist/) holding apps/<app>/src/main.js and scripts/register-paths.js. */
  distDir: string;
  databaseUrl: string;
  kafkaBrokers: string;
  /** 'fixed' uses DEFAULT_PORTS (npm start); 'free' picks free ports (tests). */
  ports: 'fixed' | 'free';
  nodeEnv: 'development' | 'test' | 'production';
  /** Extra environment for every app, or per app. */
  env?: Record<string, string>;
  appEnv?: Partial<Record<AppName, Record<string, string>>>;
  onOutput?: (app: AppName, line: string) => void;
  readyTimeoutMs?: number;
}

export interface RunningApp {
  name: AppName;
  port: number;
  url: string;
  process: ChildProcess;
}

export interface RunningSystem {
  apps: Record<AppName, RunningApp>;
  gatewayUrl: string;
  stop(): Promise<void>;
}

function nodeArgs(distDir: string, entry: string): string[] {
  return ['-r', join(distDir, 'scripts', 'register-paths.js'), join(distDir, entry)];
}

async function waitReady(
  url: string,
  child: ChildProcess,
  timeoutMs: number,
  output: () => string,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`exited with code ${child.exitCode}:\n${output()}`);
    try {
      const res = await fetch(`${url}/health/ready`);
      if (res.status === 200) return;
    } catch {
      /* not listening yet */
    }
    if (Date.now() > deadline) throw new Error(`not ready after ${timeoutMs} ms:\n${output()}`);
    await new Promise((r) => setTimeout(r, 150));
  }
}

async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 8000);
  await exited;
  clearTimeout(timer);
}

/**
 * Starts the six apps as separate Node processes from the build, the way they run in production, and
 * waits until each reports ready. Services start first, the gateway last with their addresses.
 */
export async function launchSystem(opts: LaunchOptions): Promise<RunningSystem> {
  for (const app of APPS) {
    const main = join(opts.distDir, 'apps', app, 'src', 'main.js');
    if (!existsSync(main)) throw new Error(`${main} is missing: build first (npm run build)`);
  }
  const ports = {} as Record<AppName, number>;
  for (const app of APPS) ports[app] = opts.ports === 'fixed' ? DEFAULT_PORTS[app] : await freePort();
  const url = (app: AppName) => `http://127.0.0.1:${ports[app]}`;
  const running = {} as Record<AppName, RunningApp>;
  const outputs = {} as Record<AppName, string>;
  const children: ChildProcess[] = [];

  const start = (app: AppName, extra: Record<string, string>): RunningApp => {
    outputs[app] = '';
    const child = spawn(process.execPath, nodeArgs(opts.distDir, join('apps', app, 'src', 'main.js')), {
      env: {
        ...process.env,
        NODE_ENV: opts.nodeEnv,
        HOST: '127.0.0.1',
        PORT: String(ports[app]),
        DATABASE_URL: opts.databaseUrl,
        KAFKA_BROKERS: opts.kafkaBrokers,
        INSTANCE_ID: `${app}-${process.pid}`,
        ...opts.env,
        ...extra,
        ...opts.appEnv?.[app],
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const collect = (d: Buffer) => {
      const text = d.toString();
      outputs[app] = (outputs[app] + text).slice(-8000);
      for (const line of text.split('\n').filter(Boolean)) opts.onOutput?.(app, line);
    };
    child.stdout?.on('data', collect);
    child.stderr?.on('data', collect);
    children.push(child);
    const r = { name: app, port: ports[app], url: url(app), process: child };
    running[app] = r;
    return r;
  };

  const stop = async () => {
    await Promise.all(children.map(stopChild));
  };

  try {
    const services = APPS.filter((a) => a !== 'gateway');
    for (const app of services) start(app, {});
    start('gateway', {
      CALENDAR_URL: url('calendar'),
      PUBLIC_STATUS_URL: url('public-status'),
      LENDING_URL: url('lending'),
      VERIFICATION_URL: url('verification'),
      OUTBOX_RELAY_URL: url('outbox-relay'),
    });
    const timeout = opts.readyTimeoutMs ?? 60000;
    await Promise.all(
      APPS.map((app) =>
        waitReady(running[app].url, running[app].process, timeout, () => outputs[app]).catch((err: Error) => {
          throw new Error(`${app} did not start: ${err.message}`);
        }),
      ),
    );
  } catch (err) {
    await stop();
    throw err;
  }
  return { apps: running, gatewayUrl: url('gateway'), stop };
}

/** Runs one app's admin CLI from the build and returns its JSON output. */
export function runAdmin(
  distDir: string,
  app: Exclude<AppName, 'gateway' | 'outbox-relay'>,
  args: string[],
  env: Record<string, string>,
): unknown {
  const res = spawnSync(
    process.execPath,
    nodeArgs(distDir, join('apps', app, 'src', 'cli.js')).concat(args),
    {
      env: { ...process.env, ...env },
      encoding: 'utf8',
    },
  );
  if (res.status !== 0) throw new Error(`${app} admin ${args.join(' ')} failed: ${res.stderr || res.stdout}`);
  return JSON.parse(res.stdout);
}
