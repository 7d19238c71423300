import { rateLimitRejections } from '@platform/observability';

/** Anything that runs SQL: a TypeORM DataSource/EntityManager or a pg pool. */
export interface SqlRunner {
  query(sql: string, params?: unknown[]): Promise<unknown>;
}

export interface RateLimitDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Seconds until the current window ends. */
  resetSec: number;
  /** Seconds to wait before a retry can succeed (only when not allowed). */
  retryAfterSec: number;
}

const IDENT = /^[a-z_][a-z0-9_]*$/;

export function rateLimitTableDdl(schema: string): string[] {
  if (!IDENT.test(schema)) throw new Error(`unsafe schema name: ${schema}`);
  return [
    `CREATE TABLE "${schema}".rate_limit_windows (
      bucket text NOT NULL,
      window_start timestamptz NOT NULL,
      hits integer NOT NULL,
      PRIMARY KEY (bucket, window_start))`,
  ];
}

/** The budget of a bucket for the metric: its kind before the first `:` (`writes:<product>` -> writes). */
const budgetOf = (bucket: string) =>
  bucket.includes(':') ? bucket.slice(0, bucket.indexOf(':')) : 'default';

/**
 * Sliding-window counter kept in PostgreSQL, so every replica sees the same count: the current fixed
 * window's hits plus the previous window's, weighted by how much of it still overlaps the sliding
 * window. One statement per request. Rejected attempts count too, so a client that keeps hammering
 * stays limited.
 */
export class PgSlidingWindowLimiter {
  private readonly table: string;

  constructor(
    private readonly db: SqlRunner,
    private readonly schema: string,
    private readonly limit: number,
    private readonly windowSec: number,
  ) {
    if (!IDENT.test(schema)) throw new Error(`unsafe schema name: ${schema}`);
    this.table = `"${schema}".rate_limit_windows`;
  }

  async hit(bucket: string, now = Date.now()): Promise<RateLimitDecision> {
    const { current, previous } = this.windows(now);
    const rows = (await this.db.query(
      `WITH cur AS (
         INSERT INTO ${this.table} (bucket, window_start, hits) VALUES ($1, to_timestamp($2 / 1000.0), 1)
         ON CONFLICT (bucket, window_start) DO UPDATE SET hits = ${this.table}.hits + 1
         RETURNING hits)
       SELECT cur.hits AS cur,
              COALESCE((SELECT hits FROM ${this.table} WHERE bucket = $1 AND window_start = to_timestamp($3 / 1000.0)), 0) AS prev
         FROM cur`,
      [bucket, current, previous],
    )) as { cur: number; prev: number }[];
    if (Math.random() < 0.01) void this.purge(previous - this.windowSec * 1000).catch(() => undefined);
    return this.decide(bucket, rows[0].cur, rows[0].prev, now);
  }

  /**
   * What `hit` would answer now, without counting anything: for a budget of failures (wrong passwords),
   * asked before the attempt and hit only when it fails, so successes are not counted and, while the
   * failures are over the limit, no attempt is even tried. One read of the two windows.
   */
  async check(bucket: string, now = Date.now()): Promise<RateLimitDecision> {
    const { current, previous } = this.windows(now);
    const rows = (await this.db.query(
      `SELECT COALESCE(sum(hits) FILTER (WHERE window_start = to_timestamp($2 / 1000.0)), 0)::int AS cur,
              COALESCE(sum(hits) FILTER (WHERE window_start = to_timestamp($3 / 1000.0)), 0)::int AS prev
         FROM ${this.table} WHERE bucket = $1 AND window_start IN (to_timestamp($2 / 1000.0), to_timestamp($3 / 1000.0))`,
      [bucket, current, previous],
    )) as { cur: number; prev: number }[];
    return this.decide(bucket, rows[0].cur + 1, rows[0].prev, now);
  }

  /** The current fixed window's start and the previous one's, in ms. */
  private windows(now: number): { current: number; previous: number } {
    const w = this.windowSec * 1000;
    const current = Math.floor(now / w) * w;
    return { current, previous: current - w };
  }

  /** The decision for `cur` hits in the current window (this one included) and `prev` before it. */
  private decide(bucket: string, cur: number, prev: number, now: number): RateLimitDecision {
    const w = this.windowSec * 1000;
    const current = Math.floor(now / w) * w;
    const elapsed = (now - current) / w;
    const estimate = prev * (1 - elapsed) + cur;
    const resetSec = Math.max(1, Math.ceil((current + w - now) / 1000));
    if (estimate <= this.limit) {
      return {
        allowed: true,
        limit: this.limit,
        remaining: Math.max(0, Math.floor(this.limit - estimate)),
        resetSec,
        retryAfterSec: 0,
      };
    }
    // When does prev's weight decay enough? If the current window alone is over, wait for it to end
    // and then for its hits, become the previous window's, to weigh little enough for one more.
    let retry = resetSec + Math.ceil(this.windowSec * Math.max(0, 1 - (this.limit - 1) / cur));
    if (cur < this.limit && prev > 0) {
      const x = this.windowSec * (1 - (this.limit - cur) / prev) - elapsed * this.windowSec;
      retry = Math.max(1, Math.min(resetSec, Math.ceil(x)));
    }
    rateLimitRejections.inc({ limiter: this.schema, budget: budgetOf(bucket) });
    return { allowed: false, limit: this.limit, remaining: 0, resetSec, retryAfterSec: retry };
  }

  private async purge(before: number): Promise<void> {
    await this.db.query(`DELETE FROM ${this.table} WHERE window_start < to_timestamp($1 / 1000.0)`, [before]);
  }
}
