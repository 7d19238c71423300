import { Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';

/**
 * A round of work repeated on every replica: every `intervalMs()` (0: never; tests call `runOnce()`),
 * the first round at a random point of the first interval (at most `firstRoundWithinMs`) so replicas
 * started together do not run in step. Nothing is kept in memory between rounds: what a round takes it
 * claims in PostgreSQL (FOR UPDATE SKIP LOCKED, leases, advisory locks, idempotent writes), so
 * replicas share the work instead of repeating it. One round at a time per process (a call while one
 * runs gets that round); the next round is scheduled when one ends, so rounds never pile up; a failed
 * round is logged and the next one tries again. Shutdown stops scheduling and waits for the round in
 * progress, so a transaction is never cut short. The timer does not keep the process alive.
 */
export abstract class PeriodicJob<R = unknown> implements OnApplicationBootstrap, OnApplicationShutdown {
  protected readonly logger: Logger;
  private timer?: NodeJS.Timeout;
  private current?: Promise<R>;
  protected stopping = false;

  protected constructor(
    name: string,
    private readonly firstRoundWithinMs = 60_000,
  ) {
    this.logger = new Logger(name);
  }

  /** Milliseconds between rounds; 0 turns the schedule off. */
  protected abstract intervalMs(): number;

  /** One round. */
  protected abstract work(): Promise<R>;

  /** A line to log after a round, or null to stay quiet. */
  protected describe(_result: R): string | null {
    return null;
  }

  onApplicationBootstrap(): void {
    const every = this.intervalMs();
    if (every > 0) this.schedule(Math.floor(Math.random() * Math.min(every, this.firstRoundWithinMs)));
  }

  async onApplicationShutdown(): Promise<void> {
    this.stopping = true;
    clearTimeout(this.timer);
    await this.current?.catch(() => undefined);
  }

  /** Runs one round now, or returns the round already running. */
  runOnce(): Promise<R> {
    this.current ??= this.work().finally(() => (this.current = undefined));
    return this.current;
  }

  private schedule(inMs: number): void {
    this.timer = setTimeout(() => {
      void this.runOnce()
        .then((result) => {
          const line = this.describe(result);
          if (line) this.logger.log(line);
        })
        .catch((err: unknown) =>
          this.logger.warn(`round failed: ${err instanceof Error ? err.message : String(err)}`),
        )
        .finally(() => !this.stopping && this.schedule(this.intervalMs()));
    }, inMs);
    this.timer.unref();
  }
}
