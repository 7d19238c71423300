import { Module, type MiddlewareConsumer, type NestModule } from '@nestjs/common';
import { LendingTenancy } from '../tenancy/lending.tenancy';
import { TenantDataModule } from '../tenancy/tenant-data.module';
import { ApiKeysController } from './api-keys.controller';
import { ApiKeysService } from './api-keys.service';
import { KeyRequestLogMiddleware } from './key-request-log.middleware';
import { KeyRequestLogRetention } from './key-request-log.retention';
import { KeyRequestLogWriter } from './key-request-log.writer';
import { KeyRequestsRepository } from './key-requests.repository';
import { KeyUsageRepository } from './key-usage.repository';

/**
 * Partner keys managed by their organization (`/ApiKeys/...`), and every key's request log and
 * last-used time: the log's middleware sees every lending route, whichever module serves it.
 */
@Module({
  imports: [LendingTenancy, TenantDataModule],
  controllers: [ApiKeysController],
  providers: [
    ApiKeysService,
    KeyRequestsRepository,
    KeyUsageRepository,
    KeyRequestLogWriter,
    KeyRequestLogRetention,
  ],
})
export class ApiKeysModule implements NestModule {
  configure(consumer: MiddlewareConsumer): void {
    consumer.apply(KeyRequestLogMiddleware).forRoutes('*');
  }
}
