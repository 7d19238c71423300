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
    const w = this.windowSec * 1000;
    const current = Math.floor(now / w) * w;
    const elapsed = (now - current) / w;
    const rows = (await this.db.query(
      `WITH cur AS (
         INSERT INTO ${this.table} (bucket, window_start, hits) VALUES ($1, to_timestamp($2 / 1000.0), 1)
         ON CONFLICT (bucket, window_start) DO UPDATE SET hits = ${this.table}.hits + 1
         RETURNING hits)
       SELECT cur.hits AS cur,
              COALESCE((SELECT hits FROM ${this.table} WHERE bucket = $1 AND window_start = to_timestamp($3 / 1000.0)), 0) AS prev
         FROM cur`,
      [bucket, current, current - w],
    )) as { cur: number; prev: number }[];
    const { cur, prev } = rows[0];
    const estimate = prev * (1 - elapsed) + cur;
    const resetSec = Math.max(1, Math.ceil((current + w - now) / 1000));
    if (Math.random() < 0.01) void this.purge(current - 2 * w).catch(() => undefined);
    if (estimate <= this.limit) {
      return {
        allowed: true,
        limit: this.limit,
        remaining: Math.max(0, Math.floor(this.limit - estimate)),
        resetSec,
        retryAfterSec: 0,
      };
    }
    // When does prev's weight decay enough? If the current window alone is over, wait for it to end.
    let retry = resetSec;
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
