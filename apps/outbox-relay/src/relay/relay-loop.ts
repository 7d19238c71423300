import type { DrainResult, OutboxRelay } from '@platform/outbox';

export interface RelayLoopOptions {
  /** Fallback poll when no NOTIFY arrives (another database, a lost LISTEN connection). */
  pollIntervalMs: number;
  /**
   * After a NOTIFY, wait this long before the cycle. 0 runs it at once: commits that arrive while a
   * cycle runs gather for the next one anyway, so bursts still share batches.
   */
  wakeDelayMs: number;
  /** The producer is connected (connecting it if needed); false: the broker is away, retry in a second. */
  ready(): Promise<boolean>;
  onDrained?(relay: OutboxRelay, result: DrainResult): void;
  onError?(relay: OutboxRelay, err: Error & { code?: string }): void;
  /** After each cycle of a schema (purging, bookkeeping); errors are the callee's to handle. */
  afterCycle?(relay: OutboxRelay): Promise<void>;
}

interface SchemaState {
  relay: OutboxRelay;
  /** A NOTIFY arrived since this schema's cycle started: the next sleep returns at once. */
  pendingWake: boolean;
  wake?: () => void;
  wakeTimer?: NodeJS.Timeout;
  done?: Promise<void>;
}

const UNREACHABLE_RETRY_MS = 1000;

/**
 * The relay's drain loops, one per schema, so a backlog in one schema does not hold back another's
 * events, and a NOTIFY (its payload is the schema) wakes only the loop it concerns. Each cycle drains
 * its schema until caught up; several replicas share the work through the leases in the outbox rows.
 * Plain TypeScript (no Nest) so the benchmark runs exactly this loop.
 */
export class RelayLoop {
  private running = false;
  private readonly states: Map<string, SchemaState>;

  constructor(
    relays: OutboxRelay[],
    private readonly opts: RelayLoopOptions,
  ) {
    this.states = new Map(relays.map((relay) => [relay.schema, { relay, pendingWake: false }]));
  }

  start(): void {
    this.running = true;
    for (const state of this.states.values()) state.done = this.run(state);
  }

  async stop(): Promise<void> {
    this.running = false;
    for (const state of this.states.values()) {
      clearTimeout(state.wakeTimer);
      state.wake?.();
    }
    await Promise.all([...this.states.values()].map((s) => s.done));
  }

  /** A writer committed events in `schema` (all schemas when unknown). */
  notify(schema?: string): void {
    const one = schema === undefined ? undefined : this.states.get(schema);
    for (const state of one ? [one] : this.states.values()) this.wakeSoon(state);
  }

  private wakeSoon(state: SchemaState): void {
    state.pendingWake = true;
    if (this.opts.wakeDelayMs <= 0) {
      state.wake?.();
      return;
    }
    if (state.wakeTimer) return;
    state.wakeTimer = setTimeout(() => {
      state.wakeTimer = undefined;
      state.wake?.();
    }, this.opts.wakeDelayMs);
  }

  private sleep(state: SchemaState, ms: number): Promise<void> {
    if (state.pendingWake) {
      state.pendingWake = false;
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        state.wake = undefined;
        resolve();
      }
      state.wake = done;
    });
  }

  private async run(state: SchemaState): Promise<void> {
    while (this.running) {
      state.pendingWake = false;
      let more = false;
      const ready = await this.opts.ready();
      if (ready && this.running) {
        try {
          const result = await state.relay.drain({ keepGoing: () => this.running });
          more = result.more;
          this.opts.onDrained?.(state.relay, result);
        } catch (err) {
          this.opts.onError?.(state.relay, err as Error & { code?: string });
        }
        await this.opts.afterCycle?.(state.relay);
      }
      if (!more && this.running) {
        await this.sleep(state, ready ? this.opts.pollIntervalMs : UNREACHABLE_RETRY_MS);
      }
    }
  }
}
