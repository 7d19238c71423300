import { Module } from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import { PlatformHealthService } from '../health-events/platform-health.service';
import { PUBLIC_STATUS_PROVIDERS } from '../providers';
import {
  AutomatedStateService,
  PLATFORM_HEALTH_LOOKUP,
  type PlatformHealthLookup,
} from './automated-state.service';
import { CheckRunnerService } from './check-runner.service';
import { HealthMappingService } from './health-mapping.service';
import { CheckRunsRepository } from './check-runs.unscoped.repository';
import { MonitoringChecksRepository } from './monitoring-checks.repository';
import { MonitoringController } from './monitoring.controller';
import { MonitoringService } from './monitoring.service';

/**
 * The automated state sources: monitoring checks and the platform-health mapping. The status model's
 * services are stateless, so this module provides its own instances of them (the app's list is not a
 * module it could import; incidents follow automated changes and notify subscribers). PlatformHealthService is looked up in the app instead: its
 * module owns the app's Kafka consumer and must be registered once.
 */
@Module({
  controllers: [MonitoringController],
  providers: [
    ...PUBLIC_STATUS_PROVIDERS,
    MonitoringChecksRepository,
    CheckRunsRepository,
    AutomatedStateService,
    CheckRunnerService,
    HealthMappingService,
    MonitoringService,
    {
      provide: PLATFORM_HEALTH_LOOKUP,
      inject: [ModuleRef],
      useFactory:
        (refs: ModuleRef): PlatformHealthLookup =>
        async (service) => {
          const health = refs.get(PlatformHealthService, { strict: false });
          const row = (await health.platformHealth()).find((s) => s.service === service);
          return row ? { state: row.state, since: row.since } : null;
        },
    },
  ],
  exports: [CheckRunnerService, HealthMappingService, MonitoringService],
})
export class MonitoringModule {}
