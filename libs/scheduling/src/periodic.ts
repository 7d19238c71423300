import { Logger } from '@nestjs/common';

/**
 * Whose work a periodic task does, which decides whether replicas may run it side by side:
 * - `cluster`: work shared by the replicas of a service. Every replica runs it and a round takes what
 *   it works on in PostgreSQL (FOR UPDATE SKIP LOCKED, leases, advisory locks, idempotent statements),
 *   so replicas share the work instead of repeating it. No leader, no state kept between rounds.
 * - `process`: work on this process's own resources (its idle pools, its sockets, its heartbeat); each
 *   replica does its own and nothing is shared.
 */
export type PeriodicScope = 'cluster' | 'process';

export interface PeriodicOptions<R> {
  /** Logger context: the name in the task's log lines. */
  name: string;
  scope: PeriodicScope;
  /** The pause between rounds in ms, read before every pause; 0 (at start) turns the schedule off. */
  everyMs: number | (() => number);
  /**
   * When the first round runs after `start()`: in so many ms, or at a random point within
   * `spreadWithinMs` (and within one interval), so that replicas started together do not run in
   * step. Default: spread within 60 s.
   */
  firstRound?: number | { spreadWithinMs: number };
  /** One round. */
  work: () => Promise<R>;
  /**
   * The pause after a round that ended well: 0 runs the next one at once (a full batch: more is
   * waiting). Default: `everyMs`.
   */
  pauseAfter?: (result: R) => number;
  /** The pause after the n-th failed round in a row (a backoff). Default: `everyMs`. */
  pauseAfterFailure?: (failures: number) => number;
  /** A line to log after a round, or null to stay quiet. */
  describe?: (result: R) => string | null;
  /** Replaces the default warning on a failed round. */
  onError?: (err: unknown) => void;
  /** At stop, wait at most this long for the round in progress (default: until it ends). */
  stopWaitsAtMostMs?: number;
  logger?: Logger;
}

/**
 * The one way to repeat work (CONVENTIONS.md): rounds of `work`, one at a time per task, the next
 * scheduled when one ends, so rounds never pile up and a slow round only delays the next; a failed
 * round is logged and the next one tries again after `pauseAfterFailure`. `wake()` ends the current
 * pause (a NOTIFY arrived), and a wake during a round makes the next pause end at once, so no wake is
 * lost. `stop()` stops scheduling and waits for the round in progress, so a transaction is never cut
 * short. Timers do not keep the process alive. Plain TypeScript: Nest providers use `PeriodicJob`,
 * which runs on this.
 */
export class Periodic<R = unknown> {
  private readonly logger: Logger;
  private loop?: Promise<void>;
  private current?: Promise<R>;
  private started = false;
  private stopping = false;
  private wakePending = false;
  private endPause?: () => void;

  constructor(private readonly opts: PeriodicOptions<R>) {
    this.logger = opts.logger ?? new Logger(opts.name);
  }

  get scope(): PeriodicScope {
    return this.opts.scope;
  }

  /** True between `start()` and `stop()`: long rounds check it to end early at shutdown. */
  get active(): boolean {
    return this.started && !this.stopping;
  }

  /** True once `stop()` was called (until the next `start()`). */
  get stopped(): boolean {
    return this.stopping;
  }

  /** Starts the schedule (no-op when it runs, or when `everyMs` is 0). */
  start(): void {
    if (this.started) return;
    const every = this.every();
    if (every <= 0) return;
    this.started = true;
    this.stopping = false;
    this.loop = this.run(this.firstDelay(every));
  }

  /** Stops scheduling and waits for the round in progress (at most `stopWaitsAtMostMs`). */
  async stop(): Promise<void> {
    this.stopping = true;
    this.endPause?.();
    const done = Promise.all([this.loop, this.current?.catch(() => undefined)]);
    const limit = this.opts.stopWaitsAtMostMs;
    if (limit === undefined) await done;
    else {
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([done, new Promise((r) => (timer = setTimeout(r, limit)))]);
      clearTimeout(timer);
    }
    this.loop = undefined;
    this.started = false;
  }

  /** Runs one round now, or returns the round already running. */
  runOnce(): Promise<R> {
    this.current ??= this.opts.work().finally(() => (this.current = undefined));
    return this.current;
  }

  /** Ends the current pause; during a round, the pause after it. */
  wake(): void {
    this.wakePending = true;
    this.endPause?.();
  }

  private every(): number {
    const e = this.opts.everyMs;
    return typeof e === 'number' ? e : e();
  }

  private firstDelay(every: number): number {
    const first = this.opts.firstRound ?? { spreadWithinMs: 60_000 };
    if (typeof first === 'number') return first;
    return Math.floor(Math.random() * Math.min(every, first.spreadWithinMs));
  }

  private async run(firstDelay: number): Promise<void> {
    if (firstDelay > 0) await this.pause(firstDelay);
    let failures = 0;
    // The one sanctioned loop of periodic work (eslint.config.mjs bans others).
    while (!this.stopping) {
      this.wakePending = false;
      let pause: number;
      try {
        const result = await this.runOnce();
        failures = 0;
        const line = this.opts.describe?.(result);
        if (line) this.logger.log(line);
        pause = this.opts.pauseAfter ? this.opts.pauseAfter(result) : this.every();
      } catch (err) {
        failures++;
        if (this.opts.onError) this.opts.onError(err);
        else this.logger.warn(`round failed: ${err instanceof Error ? err.message : String(err)}`);
        pause = this.opts.pauseAfterFailure ? this.opts.pauseAfterFailure(failures) : this.every();
      }
      if (this.stopping) break;
      // A schedule turned off meanwhile ends; `pause` 0 from pauseAfter is "more is waiting".
      if (!this.opts.pauseAfter && this.every() <= 0) break;
      if (pause > 0) await this.pause(pause);
    }
  }

  private pause(ms: number): Promise<void> {
    if (this.wakePending || this.stopping) {
      this.wakePending = false;
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      const end = () => {
        clearTimeout(timer);
        this.endPause = undefined;
        resolve();
      };
      const timer = setTimeout(end, ms);
      timer.unref();
      this.endPause = end;
    });
  }
}
