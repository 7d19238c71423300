import { Logger, type BeforeApplicationShutdown } from '@nestjs/common';

export interface BatchWriterOptions {
  /** What the lines are, for the warnings ("request log") and the logger's context ("RequestLog"). */
  what: string;
  context: string;
  /** Lines written together at most this often (ms)... */
  flushEveryMs?: number;
  /** ...or as soon as this many wait. */
  flushAt?: number;
  /** Lines kept while the database is away; beyond it the oldest are dropped (and counted in a warning). */
  maxPending?: number;
}

/**
 * Lines written off the request path (decision 0015): they gather in this replica for at most
 * `flushEveryMs` and go to PostgreSQL together, so the request that produced a line costs no write of
 * its own. Each line keeps what it was given (its time included). On shutdown the rest is written
 * (before the database closes); a crash loses at most the last `flushEveryMs` of lines, which is why
 * only logs go through here, never business data. A failed write keeps its lines (bounded) and retries.
 *
 * Subclasses say how a batch is written: `write` resolves when every line is stored, or with the lines
 * that could not be stored yet (kept for the next flush), and rejects when none were.
 */
export abstract class BatchWriter<L> implements BeforeApplicationShutdown {
  protected readonly logger: Logger;
  private readonly flushEveryMs: number;
  private readonly flushAt: number;
  private readonly maxPending: number;
  private pending: L[] = [];
  private timer?: NodeJS.Timeout;
  private flushing: Promise<void> = Promise.resolve();
  private dropped = 0;

  protected constructor(private readonly options: BatchWriterOptions) {
    this.logger = new Logger(options.context);
    this.flushEveryMs = options.flushEveryMs ?? 200;
    this.flushAt = options.flushAt ?? 500;
    this.maxPending = options.maxPending ?? 20_000;
  }

  /** Stores a batch; resolves with the lines to try again later, if any. */
  protected abstract write(lines: L[]): Promise<L[] | void>;

  record(line: L): void {
    if (this.pending.length >= this.maxPending) {
      this.pending.shift();
      this.dropped++;
    }
    this.pending.push(line);
    if (this.pending.length >= this.flushAt) void this.flush();
    else this.timer ??= setTimeout(() => void this.flush(), this.flushEveryMs);
  }

  /** Writes what is pending (after any write in progress); resolves when it is written or given up. */
  flush(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    const lines = this.pending;
    this.pending = [];
    if (!lines.length) return this.flushing;
    this.flushing = this.flushing.then(async () => {
      try {
        const failed = (await this.write(lines)) ?? [];
        if (failed.length) this.retryLater(failed, `${failed.length} of ${lines.length} lines not written`);
      } catch (err) {
        this.retryLater(lines, `write of ${lines.length} lines failed: ${(err as Error).message}`);
      }
    });
    if (this.dropped) {
      this.logger.warn(`${this.options.what}: ${this.dropped} lines dropped while the database was away`);
      this.dropped = 0;
    }
    return this.flushing;
  }

  private retryLater(lines: L[], why: string): void {
    // Put them back (oldest first) for the next flush; maxPending keeps this finite.
    this.pending = lines.concat(this.pending).slice(-this.maxPending);
    this.timer ??= setTimeout(() => void this.flush(), this.flushEveryMs * 10);
    this.logger.warn(`${this.options.what} ${why}`);
  }

  async beforeApplicationShutdown(): Promise<void> {
    await this.flush();
  }
}
