import { Inject, Injectable } from '@nestjs/common';
import { SERVICES } from '@platform/registry';
import { HealthEventsRepository } from './health-events.unscoped.repository';
import { HEALTH_WINDOW } from './health-reported.consumer';
import type { HealthTransition, HealthWindow, PlatformServiceHealth } from './health-state';

/**
 * The platform's own apps as public-status sees them through their health reports: what the status
 * model reads to set the state of the resources that stand for them (docs/platform-health.md).
 */
@Injectable()
export class PlatformHealthService {
  constructor(
    private readonly repository: HealthEventsRepository,
    @Inject(HEALTH_WINDOW) private readonly window: HealthWindow,
  ) {}

  /**
   * Every app of libs/registry, in registry order: `up` while at least one instance's latest report
   * within the silence window says ready; `down` otherwise, including a service that went silent
   * (even before the silence check recorded it) and one that never reported (`since: null`).
   */
  async platformHealth(): Promise<PlatformServiceHealth[]> {
    const rows = new Map((await this.repository.services(this.window)).map((r) => [r.service, r]));
    return SERVICES.map(
      (s): PlatformServiceHealth =>
        rows.get(s.name) ?? {
          service: s.name,
          state: 'down',
          since: null,
          reason: 'never-reported',
          instances: [],
        },
    );
  }

  /**
   * Up/down transitions in [from, to), oldest first, with the state the range starts in (the last
   * transition before `from`) for each service asked: enough to compute downtime for any range.
   */
  async history(
    service: string,
    from: Date,
    to: Date,
  ): Promise<{ initial: HealthTransition | null; transitions: HealthTransition[] }> {
    const [initial, transitions] = await Promise.all([
      this.repository.stateAt(service, from),
      this.repository.transitions(from, to, service),
    ]);
    return { initial, transitions };
  }
}
