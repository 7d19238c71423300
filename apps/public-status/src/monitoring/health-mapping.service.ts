import { Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { Transactions } from '@platform/persistence';
import { PublicStatusConfig } from '../config/public-status.config';
import { AutomatedStateService } from './automated-state.service';
import { MonitoringChecksRepository } from './monitoring-checks.repository';

/**
 * Maps the platform's own health (PlatformHealthService, decision 0021) onto the resources that name a
 * `platform_service`: up -> operational, down -> major_outage, source `health`. Every HEALTH_SYNC_MS
 * every replica reconciles each mapped resource in its own transaction; reconciliation is
 * level-triggered under the resource's row lock, so replicas racing write one history row, and a
 * missed tick (a replica down, a transition while maintenance held the resource) heals at the next.
 */
@Injectable()
export class HealthMappingService implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('HealthMapping');
  private timer?: NodeJS.Timeout;
  private running?: Promise<unknown>;

  constructor(
    private readonly repository: MonitoringChecksRepository,
    private readonly automated: AutomatedStateService,
    private readonly transactions: Transactions,
    private readonly cfg: PublicStatusConfig,
  ) {}

  onApplicationBootstrap(): void {
    if (!this.cfg.HEALTH_SYNC_MS) return;
    this.timer = setInterval(() => {
      this.running ??= this.syncOnce()
        .catch((err: Error) => this.logger.warn(`health mapping failed: ${err.message}`))
        .finally(() => (this.running = undefined));
    }, this.cfg.HEALTH_SYNC_MS);
    this.timer.unref();
  }

  async onApplicationShutdown(): Promise<void> {
    clearInterval(this.timer);
    await this.running;
  }

  /** One pass; returns how many resource states this replica changed. */
  async syncOnce(): Promise<number> {
    let changed = 0;
    for (const m of await this.repository.mappedResources()) {
      const set = await this.transactions.run((tx) =>
        this.automated.reconcile(tx, m.businessId, m.resourceId, 'health'),
      );
      if (set) changed++;
    }
    return changed;
  }
}
