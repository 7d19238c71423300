import { Module, type DynamicModule } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { TypedConfigModule } from '@platform/config';
import { EnvelopeModule } from '@platform/envelope';
import { HealthModule, brokerCheck, databaseCheck } from '@platform/health';
import { PlatformI18nModule } from '@platform/i18n';
import { BrokerProbeModule } from '@platform/kafka';
import { PersistenceModule } from '@platform/persistence';
import { ApplicationsController } from './applications/applications.controller';
import { ApplicationsRepository } from './applications/applications.repository';
import { LoanApplication } from './applications/application.entity';
import { LendingGuard } from './auth/lending.guard';
import { LendingConfig } from './config/lending.config';
import { LENDING_MIGRATIONS } from './migrations';
import { Organization } from './tenancy/organization.entity';
import { PartnerKey } from './tenancy/partner-key.entity';

export const LENDING_ENTITIES = [Organization, PartnerKey, LoanApplication];

@Module({})
export class LendingAppModule {
  static register(env: NodeJS.ProcessEnv = process.env): DynamicModule {
    return {
      module: LendingAppModule,
      imports: [
        TypedConfigModule.forRoot(LendingConfig, env),
        PlatformI18nModule.forRoot(),
        EnvelopeModule,
        PersistenceModule.forRootAsync({
          inject: [LendingConfig],
          useFactory: (c: LendingConfig) => ({
            url: c.DATABASE_URL,
            schema: c.DB_SCHEMA,
            poolMax: c.DB_POOL_MAX,
            applicationName: `lending-${c.INSTANCE_ID}`,
            entities: LENDING_ENTITIES,
            migrations: LENDING_MIGRATIONS,
          }),
        }),
        BrokerProbeModule.forRoot(LendingConfig),
        HealthModule.forRoot('lending', [databaseCheck, brokerCheck]),
      ],
      controllers: [ApplicationsController],
      providers: [ApplicationsRepository, { provide: APP_GUARD, useClass: LendingGuard }],
    };
  }
}
