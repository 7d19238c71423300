import { Injectable, Logger, type BeforeApplicationShutdown } from '@nestjs/common';
import { RequestLogRepository, type RequestLogLine } from './request-log.repository';

/** Lines written together at most this often... */
const FLUSH_EVERY_MS = 200;
/** ...or as soon as this many wait. */
const FLUSH_AT = 500;
/** Lines kept while the database is away; beyond it the oldest are dropped (and counted in a warning). */
const MAX_PENDING = 20_000;

/**
 * The request log off the request path: lines gather in this replica for at most FLUSH_EVERY_MS and go
 * to PostgreSQL as one statement, so a logged request costs no write of its own (a read used to carry
 * an INSERT and its commit). Each line keeps the time it was answered. On shutdown the rest is written;
 * a crash loses at most the last FLUSH_EVERY_MS of lines (a log, not business data: decision 0015).
 */
@Injectable()
export class RequestLogWriter implements BeforeApplicationShutdown {
  private readonly logger = new Logger('RequestLog');
  private pending: RequestLogLine[] = [];
  private timer?: NodeJS.Timeout;
  private flushing: Promise<void> = Promise.resolve();
  private dropped = 0;

  constructor(private readonly repo: RequestLogRepository) {}

  record(line: RequestLogLine): void {
    if (this.pending.length >= MAX_PENDING) {
      this.pending.shift();
      this.dropped++;
    }
    this.pending.push(line);
    if (this.pending.length >= FLUSH_AT) this.flush();
    else this.timer ??= setTimeout(() => this.flush(), FLUSH_EVERY_MS);
  }

  /** Writes what is pending (after any write in progress); resolves when it is written or given up. */
  flush(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    const lines = this.pending;
    this.pending = [];
    if (!lines.length) return this.flushing;
    this.flushing = this.flushing.then(() =>
      this.repo.recordMany(lines).catch((err: Error) => {
        // Put them back (oldest first) for the next flush; the bound above keeps this finite.
        this.pending = lines.concat(this.pending).slice(-MAX_PENDING);
        this.timer ??= setTimeout(() => this.flush(), FLUSH_EVERY_MS * 10);
        this.logger.warn(`request log write of ${lines.length} lines failed: ${err.message}`);
      }),
    );
    if (this.dropped) {
      this.logger.warn(`request log: ${this.dropped} lines dropped while the database was away`);
      this.dropped = 0;
    }
    return this.flushing;
  }

  async beforeApplicationShutdown(): Promise<void> {
    await this.flush();
  }
}
