import { Module, type DynamicModule } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { TypedConfigModule } from '@platform/config';
import { EnvelopeModule } from '@platform/envelope';
import { HealthModule, MetricsModule, brokerCheck, databaseCheck } from '@platform/health';
import { PlatformI18nModule } from '@platform/i18n';
import { BrokerProbeModule } from '@platform/kafka';
import { PersistenceModule } from '@platform/persistence';
import { ApiKeyGuard } from '@platform/tenancy';
import { join } from 'node:path';
import { PublicStatusConfig } from './config/public-status.config';
import { PUBLIC_STATUS_DATABASE } from './database';
import { HealthEventsModule } from './health-events/health-events.module';
import { PUBLIC_STATUS_PROVIDERS } from './providers';
import { ManageCatalogController } from './catalog/manage-catalog.controller';
import { IncidentsController } from './incidents/incidents.controller';
import { MaintenanceController } from './maintenance/maintenance.controller';
import { MonitoringModule } from './monitoring/monitoring.module';
import { PublicStatusController } from './public/public-status.controller';
import { SubscriptionsModule } from './subscriptions/subscriptions.module';
import { PublicStatusTenancy } from './tenancy/public-status.tenancy';
import { UptimeRollupScheduler } from './uptime/uptime-rollup.scheduler';

@Module({})
export class PublicStatusAppModule {
  static register(env: NodeJS.ProcessEnv = process.env): DynamicModule {
    return {
      module: PublicStatusAppModule,
      imports: [
        TypedConfigModule.forRoot(PublicStatusConfig, env),
        PlatformI18nModule.forRoot(join(__dirname, 'i18n')),
        EnvelopeModule,
        PersistenceModule.forService(PublicStatusConfig, PUBLIC_STATUS_DATABASE, { name: 'public-status' }),
        PublicStatusTenancy,
        BrokerProbeModule.forRoot(PublicStatusConfig),
        MetricsModule.forRoot(),
        HealthModule.forRoot('public-status', [databaseCheck, brokerCheck], [], {
          config: PublicStatusConfig,
        }),
        HealthEventsModule.register(),
        MonitoringModule,
        SubscriptionsModule.register(),
      ],
      controllers: [
        PublicStatusController,
        ManageCatalogController,
        IncidentsController,
        MaintenanceController,
      ],
      providers: [
        ...PUBLIC_STATUS_PROVIDERS,
        UptimeRollupScheduler,
        { provide: APP_GUARD, useExisting: ApiKeyGuard },
      ],
    };
  }
}
