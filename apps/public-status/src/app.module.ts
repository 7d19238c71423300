import { Module, type DynamicModule } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { PublicOnlyGuard } from '@platform/auth';
import { TypedConfigModule } from '@platform/config';
import { EnvelopeModule } from '@platform/envelope';
import { HealthModule, brokerCheck, databaseCheck } from '@platform/health';
import { PlatformI18nModule } from '@platform/i18n';
import { BrokerProbeModule } from '@platform/kafka';
import { PersistenceModule } from '@platform/persistence';
import { PublicStatusConfig } from './config/public-status.config';
import { PUBLIC_STATUS_MIGRATIONS } from './migrations';
import { ProductsController } from './products/products.controller';
import { StatusProduct } from './products/status-product.entity';

export const PUBLIC_STATUS_ENTITIES = [StatusProduct];

@Module({})
export class PublicStatusAppModule {
  static register(env: NodeJS.ProcessEnv = process.env): DynamicModule {
    return {
      module: PublicStatusAppModule,
      imports: [
        TypedConfigModule.forRoot(PublicStatusConfig, env),
        PlatformI18nModule.forRoot(),
        EnvelopeModule,
        PersistenceModule.forRootAsync({
          inject: [PublicStatusConfig],
          useFactory: (c: PublicStatusConfig) => ({
            url: c.DATABASE_URL,
            schema: c.DB_SCHEMA,
            poolMax: c.DB_POOL_MAX,
            applicationName: `public-status-${c.INSTANCE_ID}`,
            entities: PUBLIC_STATUS_ENTITIES,
            migrations: PUBLIC_STATUS_MIGRATIONS,
          }),
        }),
        BrokerProbeModule.forRoot(PublicStatusConfig),
        HealthModule.forRoot('public-status', [databaseCheck, brokerCheck]),
      ],
      controllers: [ProductsController],
      providers: [{ provide: APP_GUARD, useClass: PublicOnlyGuard }],
    };
  }
}
