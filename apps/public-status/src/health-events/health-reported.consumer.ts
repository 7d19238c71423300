import { Inject, Injectable, Logger } from '@nestjs/common';
import type { ConsumerContext, ContractHandler } from '@platform/consumer';
import type { ServiceHealthReportedV1 } from '@platform/messaging';
import { SERVICES } from '@platform/registry';
import { HealthEventsRepository, type HealthTx } from './health-events.unscoped.repository';
import { reportOf, type HealthWindow } from './health-state';

export const HEALTH_WINDOW = Symbol('HEALTH_WINDOW');

const KNOWN = new Set<string>(SERVICES.map((s) => s.name));

/**
 * Applies `platform.service.health-reported.v1` once per event id (libs/consumer's inbox, in the same
 * transaction): the instance's last report and, when it changes, the service's state and history.
 */
@Injectable()
export class HealthReportedConsumer implements ContractHandler<ServiceHealthReportedV1, HealthTx> {
  private readonly logger = new Logger('PlatformHealth');

  constructor(
    private readonly repository: HealthEventsRepository,
    @Inject(HEALTH_WINDOW) private readonly window: HealthWindow,
  ) {}

  readonly handle = async (event: ServiceHealthReportedV1, ctx: ConsumerContext<HealthTx>): Promise<void> => {
    // Only the registry's apps have a place on the status page; anything else on the topic is noise
    // that would otherwise grow the tables (the inbox row still records it as handled).
    if (!KNOWN.has(event.service)) {
      this.logger.warn(`ignored a health report of unknown service "${event.service.slice(0, 64)}"`);
      return;
    }
    const transition = await this.repository.applyReport(ctx.tx, reportOf(event), this.window);
    if (transition)
      this.logger.log(
        `${transition.service} is ${transition.state}` +
          (transition.failingChecks.length ? ` (failing: ${transition.failingChecks.join(', ')})` : ''),
      );
  };
}
