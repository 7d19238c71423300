import type { DrainResult, OutboxRelay } from '@platform/outbox';
import { Periodic } from '@platform/scheduling';

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
  cycles: Periodic<Cycle>;
  wakeTimer?: NodeJS.Timeout;
}

interface Cycle {
  ready: boolean;
  more: boolean;
}

const UNREACHABLE_RETRY_MS = 1000;

/**
 * The relay's drain loops, one per schema, so a backlog in one schema does not hold back another's
 * events, and a NOTIFY (its payload is the schema) wakes only the loop it concerns. Each cycle drains
 * its schema until caught up; several replicas share the work through the leases in the outbox rows.
 * Plain TypeScript (no Nest) so the benchmark runs exactly this loop.
 */
export class RelayLoop {
  private readonly states: Map<string, SchemaState>;

  constructor(
    relays: OutboxRelay[],
    private readonly opts: RelayLoopOptions,
  ) {
    this.states = new Map(relays.map((relay) => [relay.schema, this.stateOf(relay)]));
  }

  start(): void {
    for (const state of this.states.values()) state.cycles.start();
  }

  async stop(): Promise<void> {
    for (const state of this.states.values()) clearTimeout(state.wakeTimer);
    await Promise.all([...this.states.values()].map((s) => s.cycles.stop()));
  }

  /** A writer committed events in `schema` (all schemas when unknown). */
  notify(schema?: string): void {
    const one = schema === undefined ? undefined : this.states.get(schema);
    for (const state of one ? [one] : this.states.values()) this.wakeSoon(state);
  }

  /**
   * One schema's cycles (Periodic, cluster scope: the outbox leases share the rows): the first at
   * once, the next at once while a drain stopped with more to do, else after the poll interval or a
   * NOTIFY; a second while the broker is away.
   */
  private stateOf(relay: OutboxRelay): SchemaState {
    const cycles: Periodic<Cycle> = new Periodic<Cycle>({
      name: `RelayLoop:${relay.schema}`,
      scope: 'cluster',
      everyMs: this.opts.pollIntervalMs,
      firstRound: 0,
      work: () => this.cycle(relay, cycles),
      pauseAfter: (c) => (c.more ? 0 : c.ready ? this.opts.pollIntervalMs : UNREACHABLE_RETRY_MS),
    });
    return { relay, cycles };
  }

  private wakeSoon(state: SchemaState): void {
    if (this.opts.wakeDelayMs <= 0) {
      state.cycles.wake();
      return;
    }
    if (state.wakeTimer) return;
    state.wakeTimer = setTimeout(() => {
      state.wakeTimer = undefined;
      state.cycles.wake();
    }, this.opts.wakeDelayMs);
  }

  private async cycle(relay: OutboxRelay, cycles: Periodic<Cycle>): Promise<Cycle> {
    const ready = await this.opts.ready();
    if (!ready || !cycles.active) return { ready, more: false };
    let more = false;
    try {
      const result = await relay.drain({ keepGoing: () => cycles.active });
      more = result.more;
      this.opts.onDrained?.(relay, result);
    } catch (err) {
      this.opts.onError?.(relay, err as Error & { code?: string });
    }
    await this.opts.afterCycle?.(relay);
    return { ready, more };
  }
}
