import { Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import type { Producer } from 'kafkajs';
import type { OutboxRelay, SchemaLag } from '@platform/outbox';
import { RelayConfig } from '../config/relay.config';
import { OutboxRepository } from './outbox.repository';
import { RelayLoop } from './relay-loop';
import { createRelayProducer, relayLoopTiming, relayOptions } from './relay.settings';

export interface RelayTotals {
  sent: number;
  failed: number;
  deadLettered: number;
  lastCycleAt: string | null;
}

const PURGE_EVERY_MS = 10 * 60 * 1000;

/**
 * Runs the drain loop of every configured schema (relay-loop.ts). Wakes on NOTIFY from the writers and
 * otherwise polls; several replicas share the work through the leases in the outbox rows.
 */
@Injectable()
export class RelayService implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('OutboxRelay');
  private readonly relays: OutboxRelay[];
  private readonly producer: Producer;
  private readonly loop: RelayLoop;
  private connected = false;
  private connecting?: Promise<boolean>;
  private listener?: { close(): Promise<void> };
  private lastCycleAt: string | null = null;
  private readonly lastPurge = new Map<string, number>();
  private readonly missingTables = new Set<string>();

  constructor(
    private readonly cfg: RelayConfig,
    private readonly db: OutboxRepository,
  ) {
    this.producer = createRelayProducer(cfg);
    this.producer.on(this.producer.events.DISCONNECT, () => (this.connected = false));
    const log = (level: 'info' | 'warn' | 'error', msg: string) =>
      this.logger[level === 'info' ? 'log' : level](msg);
    this.relays = cfg.RELAY_SCHEMAS.split(',').map((schema) =>
      db.relayFor(schema, this.producer, relayOptions(cfg, log)),
    );
    this.loop = new RelayLoop(this.relays, {
      ...relayLoopTiming(cfg),
      ready: () => this.ensureProducer(),
      onDrained: (relay) => this.missingTables.delete(relay.schema),
      onError: (relay, err) => this.reportCycleError(relay.schema, err),
      afterCycle: (relay) => {
        this.lastCycleAt = new Date().toISOString();
        return this.purgeIfDue(relay);
      },
    });
  }

  /** Published, failed and dead-lettered events of this replica since it started. */
  get totals(): RelayTotals {
    const totals: RelayTotals = { sent: 0, failed: 0, deadLettered: 0, lastCycleAt: this.lastCycleAt };
    for (const r of this.relays) {
      totals.sent += r.totals.sent;
      totals.failed += r.totals.failed;
      totals.deadLettered += r.totals.deadLettered;
    }
    return totals;
  }

  async onApplicationBootstrap(): Promise<void> {
    await this.listen().catch((err: Error) =>
      this.logger.warn(`LISTEN unavailable, polling only: ${err.message}`),
    );
    this.loop.start();
  }

  async onApplicationShutdown(): Promise<void> {
    await this.loop.stop();
    await this.listener?.close();
    await this.producer.disconnect().catch(() => undefined);
  }

  async lag(): Promise<SchemaLag[]> {
    return Promise.all(this.relays.map((r) => r.lag()));
  }

  private async listen(): Promise<void> {
    this.listener = await this.db.listen(
      (schema) => this.loop.notify(schema),
      (err) => {
        this.logger.warn(`LISTEN connection lost: ${err.message}`);
        this.listener = undefined;
      },
    );
  }

  /** One connect attempt at a time, shared by the schemas' loops. */
  private ensureProducer(): Promise<boolean> {
    if (this.connected) return Promise.resolve(true);
    this.connecting ??= this.producer
      .connect()
      .then(
        () => (this.connected = true),
        (err: Error) => {
          this.logger.warn(`broker unreachable: ${err.message}`);
          return false;
        },
      )
      .finally(() => (this.connecting = undefined));
    return this.connecting;
  }

  private reportCycleError(schema: string, err: Error & { code?: string }): void {
    // 42P01: the owning service has not migrated yet; 42703: not yet to the columns this relay reads
    // (during a rollout, until the service's new pods have migrated). Say so once, not every cycle.
    if (err.code === '42P01' || err.code === '42703') {
      if (!this.missingTables.has(schema))
        this.logger.warn(
          err.code === '42P01'
            ? `no outbox table in schema ${schema} yet`
            : `outbox of schema ${schema} not migrated to this relay's version yet: ${err.message}`,
        );
      this.missingTables.add(schema);
      return;
    }
    this.logger.error(`cycle on ${schema} failed: ${err.message}`);
  }

  private async purgeIfDue(relay: OutboxRelay): Promise<void> {
    if (this.missingTables.has(relay.schema)) return;
    if (Date.now() - (this.lastPurge.get(relay.schema) ?? 0) < PURGE_EVERY_MS) return;
    this.lastPurge.set(relay.schema, Date.now());
    await relay.purgeSent(this.cfg.RELAY_RETENTION_HOURS).catch(() => 0);
  }
}
