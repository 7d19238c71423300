import { Logger, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';

/**
 * A round of work repeated every `intervalMs()` on every replica (0 turns it off). Nothing is kept in
 * memory between rounds: what a round takes it claims in PostgreSQL (FOR UPDATE SKIP LOCKED, leases),
 * so replicas share the work instead of repeating it. One round at a time per process; a failed round is
 * logged and the next one tries again. The timer does not keep the process alive.
 */
export abstract class IntervalWorker implements OnModuleInit, OnModuleDestroy {
  protected readonly logger: Logger;
  private timer: NodeJS.Timeout | null = null;
  private current: Promise<void> | null = null;

  protected constructor(name: string) {
    this.logger = new Logger(name);
  }

  /** Milliseconds between rounds; 0: never (tests call `round()` themselves). */
  protected abstract intervalMs(): number;

  /** One round; returns a line to log when it did something, else null. */
  protected abstract work(): Promise<string | null>;

  onModuleInit(): void {
    const every = this.intervalMs();
    if (every === 0) return;
    this.timer = setInterval(() => void this.round(), every);
    this.timer.unref();
  }

  /** Stops the timer and waits for a round in progress, so shutdown never cuts a transaction short. */
  async onModuleDestroy(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.current;
  }

  /** Runs one round now unless one is running (then waits for that one). */
  round(): Promise<void> {
    this.current ??= this.work()
      .then((line) => {
        if (line) this.logger.log(line);
      })
      .catch((err: unknown) => {
        this.logger.warn(`round failed: ${err instanceof Error ? err.message : String(err)}`);
      })
      .finally(() => {
        this.current = null;
      });
    return this.current;
  }
}
