import { Injectable } from '@nestjs/common';
import { Transactions } from '@platform/persistence';
import { PeriodicJob } from '@platform/scheduling';
import { PublicStatusConfig } from '../config/public-status.config';
import { AutomatedStateService } from './automated-state.service';
import { CheckRunsRepository } from './check-runs.unscoped.repository';

/**
 * Maps the platform's own health (PlatformHealthService, decision 0021) onto the resources that name a
 * `platform_service`: up -> operational, down -> major_outage, source `health`. Every HEALTH_SYNC_MS
 * every replica (PeriodicJob, cluster scope) reconciles each mapped resource in its own transaction;
 * reconciliation is level-triggered under the resource's row lock, so replicas racing write one history row, and a
 * missed tick (a replica down, a transition while maintenance held the resource) heals at the next.
 */
@Injectable()
export class HealthMappingService extends PeriodicJob<number> {
  constructor(
    private readonly repository: CheckRunsRepository,
    private readonly automated: AutomatedStateService,
    private readonly transactions: Transactions,
    private readonly cfg: PublicStatusConfig,
  ) {
    super('HealthMapping');
  }

  protected intervalMs(): number {
    return this.cfg.HEALTH_SYNC_MS;
  }

  protected work(): Promise<number> {
    return this.syncOnce();
  }

  /** One pass, not shared with a round in progress (tests race passes); how many states it changed. */
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
