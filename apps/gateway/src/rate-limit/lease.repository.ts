import { createHash } from 'node:crypto';
import { DataSource } from 'typeorm';
import {
  dataSourceOptions,
  logMigrationsApplied,
  migrateSchema,
  trackDataSourcePool,
} from '@platform/persistence';
import { Periodic } from '@platform/scheduling';
import { GATEWAY_MIGRATIONS } from '../migrations';
import { GATEWAY_SCHEMA } from './gateway-database';
import type { Grant, LeaseStore } from './lease-limiter';

const TABLE = `"${GATEWAY_SCHEMA}".rate_limit_leases`;

/**
 * Takes up to $2 tokens of bucket $1's allowance $3 for the current window of $4 seconds, by the
 * database's clock (replicas with skewed clocks still agree on the window). SET expressions read the
 * row as it was, so `last_grant` is exactly what this statement added; the row lock serialises claims,
 * so the sum handed out never passes $3.
 */
const CLAIM = `
  INSERT INTO ${TABLE} AS l (window_start, bucket, granted, last_grant)
  SELECT w.start, $1, LEAST($2::int, $3::int), LEAST($2::int, $3::int)
    FROM (SELECT to_timestamp(floor(extract(epoch FROM clock_timestamp()) / $4::int) * $4::int) AS start) w
  ON CONFLICT (window_start, bucket) DO UPDATE
    SET granted = LEAST($3::int, GREATEST(l.granted, LEAST($3::int, l.granted + $2::int))),
        last_grant = GREATEST(0, LEAST($3::int, l.granted + $2::int) - l.granted)
  RETURNING last_grant, granted,
    (extract(epoch FROM window_start) * 1000)::float8 AS start_ms,
    (extract(epoch FROM (window_start + make_interval(secs => $4::int) - clock_timestamp())) * 1000)::float8 AS ends_in_ms`;

export interface LeaseRepositoryOptions {
  url: string;
  poolMax: number;
  instanceId: string;
  /** Rows of windows that ended longer ago than this are deleted. */
  keepSec: number;
  onError: (message: string) => void;
}

/**
 * The gateway's one way to PostgreSQL: the shared rate-limit leases. It connects and migrates its
 * schema at start (libs/persistence's `migrateSchema`, under the same advisory lock as every app), but
 * a database that is away does not stop the gateway: start-up retries in the background and the
 * limiter counts locally meanwhile (decision 0022).
 */
export class LeaseRepository implements LeaseStore {
  private ds?: DataSource;
  private connecting?: Promise<boolean>;
  private retryTimer?: NodeJS.Timeout;
  /** Every replica purges; the statement is cheap and idempotent. */
  private readonly purger = new Periodic({
    name: 'RateLimitLeases',
    scope: 'cluster',
    everyMs: 60_000,
    firstRound: 60_000,
    work: () => this.purge(),
    onError: () => undefined,
  });
  private closed = false;

  constructor(private readonly opts: LeaseRepositoryOptions) {}

  /** Connects and migrates; true when done. On failure, tries again every 5 s in the background. */
  start(): Promise<boolean> {
    this.connecting ??= this.connect().finally(() => (this.connecting = undefined));
    return this.connecting;
  }

  private async connect(): Promise<boolean> {
    const ds = new DataSource(
      dataSourceOptions({
        schema: GATEWAY_SCHEMA,
        entities: [],
        migrations: GATEWAY_MIGRATIONS,
        url: this.opts.url,
        poolMax: this.opts.poolMax,
        applicationName: `gateway-${this.opts.instanceId}`,
      }),
    );
    try {
      await ds.initialize();
      logMigrationsApplied(GATEWAY_SCHEMA, await migrateSchema(ds));
    } catch (err) {
      await ds.destroy().catch(() => undefined);
      this.opts.onError(`rate-limit store unavailable, counting per replica: ${(err as Error).message}`);
      if (!this.closed) {
        this.retryTimer = setTimeout(() => void this.start(), 5000);
        this.retryTimer.unref();
      }
      return false;
    }
    if (this.closed) {
      await ds.destroy().catch(() => undefined);
      return false;
    }
    this.ds = ds;
    trackDataSourcePool('gateway', ds);
    this.purger.start();
    return true;
  }

  async claim(bucket: string, want: number, limit: number, windowSec: number): Promise<Grant> {
    if (!this.ds) throw new Error('rate-limit store not connected');
    const rows = (await this.ds.query(CLAIM, [storedBucket(bucket), want, limit, windowSec])) as {
      last_grant: number;
      granted: number;
      start_ms: number;
      ends_in_ms: number;
    }[];
    const r = rows[0];
    return {
      granted: Number(r.last_grant),
      total: Number(r.granted),
      windowStartMs: Math.round(Number(r.start_ms)),
      endsInMs: Math.max(0, Number(r.ends_in_ms)),
    };
  }

  async purge(): Promise<void> {
    await this.ds?.query(
      `DELETE FROM ${TABLE} WHERE window_start < clock_timestamp() - make_interval(secs => $1::int)`,
      [this.opts.keepSec],
    );
  }

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.retryTimer);
    await this.purger.stop();
    await this.connecting?.catch(() => undefined);
    await this.ds?.destroy().catch(() => undefined);
    this.ds = undefined;
  }
}

/**
 * Client addresses are not kept in the database, only a hash of budget and address: enough to share a
 * count, useless as a log of who called.
 */
export function storedBucket(bucket: string): string {
  return createHash('sha256').update(bucket).digest('base64url').slice(0, 22);
}
