import { Injectable, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { PublicStatusConfig } from '../config/public-status.config';
import { UptimeService } from './uptime.service';

/**
 * Runs the daily rollup every UPTIME_ROLLUP_INTERVAL_MS on every replica (0 disables it). Replicas
 * need no coordination: a rollup is idempotent and serialized per resource (UptimeService.rollup).
 */
@Injectable()
export class UptimeRollupScheduler implements OnApplicationBootstrap, OnApplicationShutdown {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;

  constructor(
    private readonly uptime: UptimeService,
    private readonly config: PublicStatusConfig,
  ) {}

  onApplicationBootstrap(): void {
    const every = this.config.UPTIME_ROLLUP_INTERVAL_MS;
    if (!every) return;
    this.timer = setInterval(() => {
      this.running ??= this.uptime.rollupRecent().finally(() => (this.running = undefined));
    }, every);
    this.timer.unref();
  }

  async onApplicationShutdown(): Promise<void> {
    clearInterval(this.timer);
    await this.running;
  }
}
