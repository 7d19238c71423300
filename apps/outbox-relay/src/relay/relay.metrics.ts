import { Injectable, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import { ScrapedGauges, counter } from '@platform/observability';
import { RelayService, type RelayTotals } from './relay.service';

/**
 * The outbox as Prometheus sees it, per drained schema, read from the database at each scrape (one
 * query per schema, the one `GET /relay/lag` runs): what is waiting, how late the oldest is, and what
 * the relay gave up on. Schemas whose outbox table does not exist yet have no series.
 */
const lag = new ScrapedGauges<RelayService, 'pending' | 'oldest' | 'dead', 'schema'>(
  {
    pending: { name: 'outbox_pending_events', help: 'Events written but not yet published.' },
    oldest: {
      name: 'outbox_oldest_pending_seconds',
      help: 'Age of the oldest unpublished event: how late consumers are.',
    },
    dead: { name: 'outbox_dead_events', help: 'Events moved to the dead-letter topic (kept for redrive).' },
  },
  ['schema'],
  async (relay) => {
    const schemas = (await relay.lag()).filter((s) => s.available);
    return {
      pending: schemas.map((s) => ({ labels: { schema: s.schema }, value: s.pending })),
      oldest: schemas.map((s) => ({ labels: { schema: s.schema }, value: s.oldestPendingSeconds })),
      dead: schemas.map((s) => ({ labels: { schema: s.schema }, value: s.dead })),
    };
  },
);

const relays = new Set<RelayService>();

/** A counter of this process's relays' totals (they count since the replica started, as counters do). */
function totalCounter(name: string, help: string, key: keyof Omit<RelayTotals, 'lastCycleAt'>) {
  counter({
    name,
    help,
    collect() {
      this.reset();
      this.inc([...relays].reduce((n, r) => n + r.totals[key], 0));
    },
  });
}
totalCounter('outbox_published_total', 'Events published by this replica.', 'sent');
totalCounter('outbox_publish_failures_total', 'Publish attempts that failed (retried later).', 'failed');
totalCounter(
  'outbox_dead_lettered_total',
  'Events this replica moved to the dead-letter topic.',
  'deadLettered',
);

/** Puts the relay's figures on `/metrics` (libs/health MetricsModule) while the app runs. */
@Injectable()
export class RelayMetrics implements OnModuleInit, OnApplicationShutdown {
  private untrack?: () => void;

  constructor(private readonly relay: RelayService) {}

  onModuleInit(): void {
    relays.add(this.relay);
    this.untrack = lag.add(this.relay);
  }

  onApplicationShutdown(): void {
    relays.delete(this.relay);
    this.untrack?.();
  }
}
