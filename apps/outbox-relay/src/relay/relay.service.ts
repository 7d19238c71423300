import { Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import type { Producer } from 'kafkajs';
import { createKafka } from '@platform/kafka';
import type { OutboxRelay, SchemaLag } from '@platform/outbox';
import { RelayConfig } from '../config/relay.config';
import { OutboxRepository } from './outbox.repository';

export interface RelayTotals {
  sent: number;
  failed: number;
  deadLettered: number;
  lastCycleAt: string | null;
}

const PURGE_EVERY_MS = 10 * 60 * 1000;

/**
 * Runs the drain loop of every configured schema. Wakes on NOTIFY from the writers and otherwise polls;
 * several replicas share the work through the leases in the outbox rows.
 */
@Injectable()
export class RelayService implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('OutboxRelay');
  private readonly relays: OutboxRelay[];
  private readonly producer: Producer;
  private connected = false;
  private running = false;
  private loop?: Promise<void>;
  private wake?: () => void;
  /** A NOTIFY arrived since the last cycle started: the next sleep returns at once. */
  private pendingWake = false;
  private wakeTimer?: NodeJS.Timeout;
  private listener?: { close(): Promise<void> };
  private lastPurge = 0;
  private readonly missingTables = new Set<string>();
  readonly totals: RelayTotals = { sent: 0, failed: 0, deadLettered: 0, lastCycleAt: null };

  constructor(
    private readonly cfg: RelayConfig,
    private readonly db: OutboxRepository,
  ) {
    this.producer = createKafka(cfg, `${cfg.KAFKA_CLIENT_ID}-${cfg.INSTANCE_ID}`).producer({
      allowAutoTopicCreation: true,
      // One request in flight keeps per-partition order without the idempotent producer.
      maxInFlightRequests: 1,
      retry: { initialRetryTime: 100, retries: 5, maxRetryTime: 3000 },
    });
    this.producer.on(this.producer.events.DISCONNECT, () => (this.connected = false));
    const owner = `${cfg.INSTANCE_ID}`;
    this.relays = cfg.RELAY_SCHEMAS.split(',').map((schema) =>
      db.relayFor(schema, this.producer, {
        owner,
        batchSize: cfg.RELAY_BATCH_SIZE,
        leaseMs: cfg.RELAY_LEASE_MS,
        maxFailures: cfg.RELAY_MAX_FAILURES,
        backoffBaseMs: cfg.RELAY_BACKOFF_BASE_MS,
        backoffMaxMs: cfg.RELAY_BACKOFF_MAX_MS,
        log: (level, msg) => this.logger[level === 'info' ? 'log' : level](msg),
      }),
    );
  }

  async onApplicationBootstrap(): Promise<void> {
    this.running = true;
    await this.listen().catch((err: Error) =>
      this.logger.warn(`LISTEN unavailable, polling only: ${err.message}`),
    );
    this.loop = this.run();
  }

  async onApplicationShutdown(): Promise<void> {
    this.running = false;
    clearTimeout(this.wakeTimer);
    this.wake?.();
    await this.loop;
    await this.listener?.close();
    await this.producer.disconnect().catch(() => undefined);
  }

  async lag(): Promise<SchemaLag[]> {
    return Promise.all(this.relays.map((r) => r.lag()));
  }

  private async listen(): Promise<void> {
    this.listener = await this.db.listen(
      () => this.notified(),
      (err) => {
        this.logger.warn(`LISTEN connection lost: ${err.message}`);
        this.listener = undefined;
      },
    );
  }

  private async ensureProducer(): Promise<boolean> {
    if (this.connected) return true;
    try {
      await this.producer.connect();
      this.connected = true;
    } catch (err) {
      this.logger.warn(`broker unreachable: ${(err as Error).message}`);
    }
    return this.connected;
  }

  /**
   * Coalesces a burst of commits into one cycle (RELAY_WAKE_DELAY_MS), and remembers a notification
   * that arrives mid-cycle so it is not lost until the next poll.
   */
  private notified(): void {
    this.pendingWake = true;
    if (this.wakeTimer) return;
    this.wakeTimer = setTimeout(() => {
      this.wakeTimer = undefined;
      this.wake?.();
    }, this.cfg.RELAY_WAKE_DELAY_MS);
  }

  private sleep(ms: number): Promise<void> {
    if (this.pendingWake) {
      this.pendingWake = false;
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      const t = setTimeout(done, ms);
      function done() {
        clearTimeout(t);
        resolve();
      }
      this.wake = done;
    });
  }

  private async run(): Promise<void> {
    while (this.running) {
      let busy = false;
      this.pendingWake = false;
      if (await this.ensureProducer()) {
        for (const relay of this.relays) {
          if (!this.running) break;
          try {
            const r = await relay.pollOnce();
            this.missingTables.delete(relay.schema);
            this.totals.sent += r.sent;
            this.totals.failed += r.failed;
            this.totals.deadLettered += r.deadLettered;
            busy ||= r.claimed >= this.cfg.RELAY_BATCH_SIZE;
          } catch (err) {
            this.reportCycleError(relay.schema, err as Error & { code?: string });
          }
        }
        this.totals.lastCycleAt = new Date().toISOString();
        await this.purgeIfDue();
      }
      if (!busy && this.running) await this.sleep(this.connected ? this.cfg.RELAY_POLL_INTERVAL_MS : 1000);
    }
  }

  private reportCycleError(schema: string, err: Error & { code?: string }): void {
    // 42P01: the owning service has not migrated yet; say so once, not every cycle.
    if (err.code === '42P01') {
      if (!this.missingTables.has(schema)) this.logger.warn(`no outbox table in schema ${schema} yet`);
      this.missingTables.add(schema);
      return;
    }
    this.logger.error(`cycle on ${schema} failed: ${err.message}`);
  }

  private async purgeIfDue(): Promise<void> {
    if (Date.now() - this.lastPurge < PURGE_EVERY_MS) return;
    this.lastPurge = Date.now();
    for (const relay of this.relays) {
      if (this.missingTables.has(relay.schema)) continue;
      await relay.purgeSent(this.cfg.RELAY_RETENTION_HOURS).catch(() => 0);
    }
  }
}
