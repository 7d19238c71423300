import { Module } from '@nestjs/common';
import { service } from '@platform/registry';
import { WebhooksModule, webhooksOptionsFrom, type WebhooksModuleOptions } from '@platform/webhooks';
import { LendingConfig } from '../config/lending.config';
import { TenantDataModule } from '../tenancy/tenant-data.module';
import { AppPoolModule, AppPoolRepository } from '@platform/persistence';
import { WebhookSubscriptionsRepository } from './webhook-subscriptions.unscoped.repository';
import { WebhooksController } from './webhooks.controller';
import { WebhooksService } from './webhooks.service';

/** libs/webhooks wired from lending's config: the same settings and rules as verification. */
export function webhooksOptions(
  cfg: LendingConfig,
  pool: WebhooksModuleOptions['pool'],
): WebhooksModuleOptions {
  // The spec promises retries at an increasing interval: never shorter than the one before.
  return webhooksOptionsFrom(cfg, pool, service('lending').schema, { jitter: 'equal' });
}

/**
 * Webhook subscriptions (`/Webhooks/...`), their delivery log, and the delivery worker. Deliveries are
 * enqueued by LoanEvents (WebhookQueueRepository) in the transaction of each change.
 */
@Module({
  imports: [
    TenantDataModule,
    WebhooksModule.forRootAsync({
      imports: [AppPoolModule],
      inject: [LendingConfig, AppPoolRepository],
      useFactory: (cfg: LendingConfig, db: AppPoolRepository) => webhooksOptions(cfg, db.pool()),
    }),
  ],
  controllers: [WebhooksController],
  providers: [WebhooksService, WebhookSubscriptionsRepository],
})
export class LendingWebhooksModule {}
