import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import {
  GATEWAY,
  LAUNCH_ORDER,
  ROUTED_SERVICES,
  SERVICES,
  service,
  type AdminCliName,
  type ServiceName,
  RUNTIME_NODE_OPTIONS,
} from '@platform/registry';
import { freePort } from './embedded-postgres';

/** Every app in start order (services, then the gateway), from the service registry. */
export const APPS = LAUNCH_ORDER;
export type AppName = ServiceName;

export const DEFAULT_PORTS = Object.fromEntries(SERVICES.map((s) => [s.name, s.port])) as Record<
  AppName,
  number
>;

export interface LaunchOptions {
  /** Built output (dist/) holding apps/<app>/src/main.js and scripts/register-paths.js. */
  distDir: string;
  databaseUrl: string;
  kafkaBrokers: string;
  /** 'fixed' uses DEFAULT_PORTS (npm start); 'free' picks free ports (tests). */
  ports: 'fixed' | 'free';
  /**
   * The gateway's port when the caller must know the public address before the apps start (services
   * told their public URL, e.g. verification's APPLICANT_PORTAL_URL); else by `ports`.
   */
  gatewayPort?: number;
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
  readyUrl: string,
  child: ChildProcess,
  timeoutMs: number,
  output: () => string,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`exited with code ${child.exitCode}:\n${output()}`);
    try {
      const res = await fetch(readyUrl);
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
 * Starts every app as a separate Node process from the build, the way they run in production, and
 * waits until each reports ready. Services start first, the gateway last with their addresses.
 */
export async function launchSystem(opts: LaunchOptions): Promise<RunningSystem> {
  for (const app of APPS) {
    const main = join(opts.distDir, 'apps', app, 'src', 'main.js');
    if (!existsSync(main)) throw new Error(`${main} is missing: build first (npm run build)`);
  }
  const ports = {} as Record<AppName, number>;
  for (const app of APPS) ports[app] = opts.ports === 'fixed' ? DEFAULT_PORTS[app] : await freePort();
  if (opts.gatewayPort) ports.gateway = opts.gatewayPort;
  const url = (app: AppName) => `http://127.0.0.1:${ports[app]}`;
  const readyUrl = (app: AppName) => `${url(app)}${service(app).health}/ready`;
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
        NODE_OPTIONS: RUNTIME_NODE_OPTIONS,
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
    for (const app of APPS) if (app !== GATEWAY.name) start(app, {});
    start(GATEWAY.name, Object.fromEntries(ROUTED_SERVICES.map((s) => [s.gateway.upstreamEnv, url(s.name)])));
    const timeout = opts.readyTimeoutMs ?? 60000;
    await Promise.all(
      APPS.map((app) =>
        waitReady(readyUrl(app), running[app].process, timeout, () => outputs[app]).catch((err: Error) => {
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
  app: AdminCliName,
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
