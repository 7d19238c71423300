import { Injectable } from '@nestjs/common';
import { PeriodicJob } from '@platform/scheduling';
import { PublicStatusConfig } from '../config/public-status.config';
import { UptimeService } from './uptime.service';

/**
 * Runs the daily rollup every UPTIME_ROLLUP_INTERVAL_MS on every replica (0 disables it; PeriodicJob,
 * cluster scope). Replicas
 * need no coordination: a rollup is idempotent and serialized per resource (UptimeService.rollup).
 */
@Injectable()
export class UptimeRollupScheduler extends PeriodicJob<void> {
  constructor(
    private readonly uptime: UptimeService,
    private readonly config: PublicStatusConfig,
  ) {
    super('UptimeRollup');
  }

  protected intervalMs(): number {
    return this.config.UPTIME_ROLLUP_INTERVAL_MS;
  }

  protected work(): Promise<void> {
    return this.uptime.rollupRecent();
  }
}
