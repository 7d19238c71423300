import { Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { Periodic, type PeriodicScope } from './periodic';

export interface PeriodicJobOptions {
  /** `cluster` (default): replicas share the work through PostgreSQL; `process`: this process's own. */
  scope?: PeriodicScope;
  /** At shutdown, wait at most this long for the round in progress (default: until it ends). */
  stopWaitsAtMostMs?: number;
}

/**
 * A Nest provider's periodic work, on `Periodic`: a round every `intervalMs()` (0: never; tests call
 * `runOnce()`), started at application bootstrap, the first round at a random point of the first
 * interval (at most `firstRoundWithinMs`) so replicas started together do not run in step. For the
 * default `cluster` scope nothing is kept in memory between rounds: what a round takes it claims in
 * PostgreSQL (FOR UPDATE SKIP LOCKED, leases, advisory locks, idempotent writes), so replicas share the
 * work instead of repeating it. One round at a time per process (a call while one runs gets that
 * round); a failed round is logged and the next one tries again. Shutdown stops scheduling and waits
 * for the round in progress, so a transaction is never cut short. The timer does not keep the process
 * alive.
 */
export abstract class PeriodicJob<R = unknown> implements OnApplicationBootstrap, OnApplicationShutdown {
  protected readonly logger: Logger;
  private readonly periodic: Periodic<R>;

  protected constructor(name: string, firstRoundWithinMs = 60_000, options: PeriodicJobOptions = {}) {
    this.logger = new Logger(name);
    this.periodic = new Periodic<R>({
      name,
      scope: options.scope ?? 'cluster',
      logger: this.logger,
      everyMs: () => this.intervalMs(),
      firstRound: { spreadWithinMs: firstRoundWithinMs },
      work: () => this.work(),
      describe: (r) => this.describe(r),
      stopWaitsAtMostMs: options.stopWaitsAtMostMs,
    });
  }

  /** True once shutdown began: a long round checks it to stop between units of work. */
  protected get stopping(): boolean {
    return this.periodic.stopped;
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
    this.periodic.start();
  }

  async onApplicationShutdown(): Promise<void> {
    await this.periodic.stop();
  }

  /** Runs one round now, or returns the round already running. */
  runOnce(): Promise<R> {
    return this.periodic.runOnce();
  }
}
