import { Module } from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import { Transactions } from '@platform/persistence';
import { BusinessesRepository } from '../catalog/businesses.repository';
import { CatalogService } from '../catalog/catalog.service';
import { ProductsRepository } from '../catalog/products.repository';
import { ResourcesRepository } from '../catalog/resources.repository';
import { PlatformHealthService } from '../health-events/platform-health.service';
import { StateHistoryRepository } from '../status/state-history.repository';
import { StateService } from '../status/state.service';
import {
  AutomatedStateService,
  PLATFORM_HEALTH_LOOKUP,
  type PlatformHealthLookup,
} from './automated-state.service';
import { CheckRunnerService } from './check-runner.service';
import { HealthMappingService } from './health-mapping.service';
import { MonitoringChecksRepository } from './monitoring-checks.repository';
import { MonitoringController } from './monitoring.controller';
import { MonitoringService } from './monitoring.service';

/**
 * The automated state sources: monitoring checks and the platform-health mapping. The status model's
 * services are stateless, so this module provides its own instances of the few it uses (the app's
 * list is not a module it could import). PlatformHealthService is looked up in the app instead: its
 * module owns the app's Kafka consumer and must be registered once.
 */
@Module({
  controllers: [MonitoringController],
  providers: [
    Transactions,
    BusinessesRepository,
    ProductsRepository,
    ResourcesRepository,
    StateHistoryRepository,
    StateService,
    CatalogService,
    MonitoringChecksRepository,
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
