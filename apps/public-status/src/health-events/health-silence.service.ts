import { Inject, Injectable } from '@nestjs/common';
import { PeriodicJob } from '@platform/scheduling';
import { PublicStatusConfig } from '../config/public-status.config';
import { HealthEventsRepository } from './health-events.unscoped.repository';
import { HEALTH_WINDOW } from './health-reported.consumer';
import type { HealthWindow } from './health-state';

/** Instances silent this long are forgotten (a replaced pod); at least ten silence windows. */
const INSTANCE_RETENTION_MS = 24 * 60 * 60 * 1000;

/**
 * Turns silence into `down`: every HEALTH_SILENCE_CHECK_MS each replica (PeriodicJob, cluster scope)
 * runs one statement that flips
 * the services without a ready report within the window and records the transition. No leader is
 * needed: the statement is idempotent under concurrency (see HealthEventsRepository.markSilent), so
 * with any number of replicas each silent service is marked down exactly once.
 */
@Injectable()
export class HealthSilenceService extends PeriodicJob<string[]> {
  constructor(
    private readonly repository: HealthEventsRepository,
    private readonly cfg: PublicStatusConfig,
    @Inject(HEALTH_WINDOW) private readonly window: HealthWindow,
  ) {
    super('PlatformHealth');
  }

  protected intervalMs(): number {
    return this.cfg.HEALTH_SILENCE_CHECK_MS;
  }

  /** One pass (`runOnce`); returns the services this replica marked down. */
  protected async work(): Promise<string[]> {
    const flipped = await this.repository.markSilent(this.window);
    for (const service of flipped)
      this.logger.warn(`${service} is down: no ready report for ${this.window.silenceMs} ms`);
    await this.repository.pruneInstances(Math.max(INSTANCE_RETENTION_MS, 10 * this.window.silenceMs));
    return flipped;
  }
}
