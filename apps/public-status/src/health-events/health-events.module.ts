import { Module, type DynamicModule } from '@nestjs/common';
import { ConsumerModule } from '@platform/consumer';
import { ServiceHealthReported } from '@platform/messaging';
import { service } from '@platform/registry';
import { PublicStatusConfig } from '../config/public-status.config';
import { HealthEventsRepository } from './health-events.unscoped.repository';
import { HEALTH_WINDOW, HealthReportedConsumer } from './health-reported.consumer';
import { HealthSilenceService } from './health-silence.service';
import { healthWindow } from './health-state';
import { PlatformHealthService } from './platform-health.service';

/** Consumer group of the reports; replicas share it. */
export const PLATFORM_HEALTH_GROUP = 'public-status.platform-health';

@Module({
  providers: [
    HealthEventsRepository,
    {
      provide: HEALTH_WINDOW,
      inject: [PublicStatusConfig],
      useFactory: (cfg: PublicStatusConfig) =>
        healthWindow(cfg.HEALTH_HEARTBEAT_MS, cfg.HEALTH_SILENCE_INTERVALS),
    },
  ],
  exports: [HealthEventsRepository, HEALTH_WINDOW],
})
class HealthEventsDataModule {}

/**
 * The platform's own health in public-status: consumes `platform.service.health-reported.v1` with
 * inbox dedupe, detects silent services, and offers `PlatformHealthService` to the status model.
 * Also the app's one `ConsumerModule.forRootAsync` (the inbox lives in the service's schema): a future
 * consumer of another topic adds its own `forFeature` next to this module's.
 */
@Module({})
export class HealthEventsModule {
  static register(): DynamicModule {
    return {
      module: HealthEventsModule,
      imports: [
        HealthEventsDataModule,
        ConsumerModule.forRootAsync({
          imports: [HealthEventsDataModule],
          inject: [PublicStatusConfig, HealthEventsRepository],
          useFactory: (cfg: PublicStatusConfig, repository: HealthEventsRepository) => ({
            kafka: cfg,
            schema: service('public-status').schema,
            transaction: repository.transaction,
            retry: { attempts: 5, baseMs: 200, maxMs: 10_000 },
          }),
        }),
        ConsumerModule.forFeature(
          [
            {
              contract: ServiceHealthReported,
              group: PLATFORM_HEALTH_GROUP,
              handler: HealthReportedConsumer,
            },
          ],
          { imports: [HealthEventsDataModule] },
        ),
      ],
      providers: [HealthSilenceService, PlatformHealthService],
      exports: [PlatformHealthService, HealthSilenceService],
    };
  }
}
