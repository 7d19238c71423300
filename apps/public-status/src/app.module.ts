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
import { PUBLIC_STATUS_DATABASE } from './database';
import { ProductsController } from './products/products.controller';
import { ProductsRepository } from './products/products.repository';
import { ProductsService } from './products/products.service';

@Module({})
export class PublicStatusAppModule {
  static register(env: NodeJS.ProcessEnv = process.env): DynamicModule {
    return {
      module: PublicStatusAppModule,
      imports: [
        TypedConfigModule.forRoot(PublicStatusConfig, env),
        PlatformI18nModule.forRoot(),
        EnvelopeModule,
        PersistenceModule.forService(PublicStatusConfig, PUBLIC_STATUS_DATABASE, { name: 'public-status' }),
        BrokerProbeModule.forRoot(PublicStatusConfig),
        HealthModule.forRoot('public-status', [databaseCheck, brokerCheck]),
      ],
      controllers: [ProductsController],
      providers: [ProductsService, ProductsRepository, { provide: APP_GUARD, useClass: PublicOnlyGuard }],
    };
  }
}
