import { join } from 'node:path';
import { Module, type DynamicModule } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { TypedConfigModule } from '@platform/config';
import { EnvelopeModule } from '@platform/envelope';
import { HealthModule, MetricsModule, brokerCheck, databaseCheck } from '@platform/health';
import { PlatformI18nModule } from '@platform/i18n';
import { BrokerProbeModule } from '@platform/kafka';
import { PersistenceModule } from '@platform/persistence';
import { ApiKeyGuard } from '@platform/tenancy';
import { AccountingModule } from './accounting/accounting.module';
import { ApiKeysModule } from './api-keys/api-keys.module';
import { ApplicationsModule } from './applications/applications.module';
import { LendingConfig } from './config/lending.config';
import { CustomersModule } from './customers/customers.module';
import { LENDING_DATABASE } from './database';
import { LoansModule } from './loans/loans.module';
import { OriginationModule } from './origination/origination.module';
import { LendingTenancy } from './tenancy/lending.tenancy';
import { TenantDataModule } from './tenancy/tenant-data.module';
import { LendingWebhooksModule } from './webhooks/webhooks.module';

@Module({})
export class LendingAppModule {
  static register(env: NodeJS.ProcessEnv = process.env): DynamicModule {
    return {
      module: LendingAppModule,
      imports: [
        TypedConfigModule.forRoot(LendingConfig, env),
        PlatformI18nModule.forRoot(join(__dirname, 'i18n')),
        EnvelopeModule,
        PersistenceModule.forService(LendingConfig, LENDING_DATABASE, { name: 'lending' }),
        LendingTenancy,
        TenantDataModule,
        ApplicationsModule,
        ApiKeysModule,
        CustomersModule,
        LoansModule,
        OriginationModule,
        LendingWebhooksModule,
        AccountingModule,
        BrokerProbeModule.forRoot(LendingConfig),
        MetricsModule.forRoot(),
        HealthModule.forRoot('lending', [databaseCheck, brokerCheck], [], { config: LendingConfig }),
      ],
      controllers: [],
      providers: [{ provide: APP_GUARD, useExisting: ApiKeyGuard }],
    };
  }
}
