import { Module, type DynamicModule } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { TypedConfigModule } from '@platform/config';
import { EnvelopeModule } from '@platform/envelope';
import { HealthModule, brokerCheck, databaseCheck } from '@platform/health';
import { PlatformI18nModule } from '@platform/i18n';
import { BrokerProbeModule } from '@platform/kafka';
import { PersistenceModule } from '@platform/persistence';
import { VerificationGuard } from './auth/verification.guard';
import { CasesController } from './cases/cases.controller';
import { VerificationCase } from './cases/verification-case.entity';
import { VerificationConfig } from './config/verification.config';
import { VERIFICATION_MIGRATIONS } from './migrations';
import { ApiKey } from './tenancy/api-key.entity';
import { Organization } from './tenancy/organization.entity';

export const VERIFICATION_ENTITIES = [Organization, ApiKey, VerificationCase];

@Module({})
export class VerificationAppModule {
  static register(env: NodeJS.ProcessEnv = process.env): DynamicModule {
    return {
      module: VerificationAppModule,
      imports: [
        TypedConfigModule.forRoot(VerificationConfig, env),
        PlatformI18nModule.forRoot(),
        EnvelopeModule,
        PersistenceModule.forRootAsync({
          inject: [VerificationConfig],
          useFactory: (c: VerificationConfig) => ({
            url: c.DATABASE_URL,
            schema: c.DB_SCHEMA,
            poolMax: c.DB_POOL_MAX,
            applicationName: `verification-${c.INSTANCE_ID}`,
            entities: VERIFICATION_ENTITIES,
            migrations: VERIFICATION_MIGRATIONS,
          }),
        }),
        BrokerProbeModule.forRoot(VerificationConfig),
        HealthModule.forRoot('verification', [databaseCheck, brokerCheck]),
      ],
      controllers: [CasesController],
      providers: [{ provide: APP_GUARD, useClass: VerificationGuard }],
    };
  }
}
