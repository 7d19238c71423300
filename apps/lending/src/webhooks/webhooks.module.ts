import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { Module } from '@nestjs/common';
import { service } from '@platform/registry';
import { WebhooksModule, webhookTargetPolicy, type WebhooksModuleOptions } from '@platform/webhooks';
import { LendingConfig } from '../config/lending.config';
import { TenantDataModule } from '../tenancy/tenant-data.module';
import { WebhookPoolModule, WebhookPoolRepository } from './webhook-pool.repository';
import { WebhookSubscriptionsRepository } from './webhook-subscriptions.repository';
import { WebhooksController } from './webhooks.controller';
import { WebhooksService } from './webhooks.service';

/** libs/webhooks wired from lending's config: the same settings and rules as verification. */
export function webhooksOptions(
  cfg: LendingConfig,
  pool: WebhooksModuleOptions['pool'],
): WebhooksModuleOptions {
  const key = cfg.webhooksSecretKey();
  return {
    pool,
    schema: service('lending').schema,
    // Unset in production: the routes answer 503, nothing is enqueued, the worker does not run, and
    // this throwaway key only lets the module build.
    secretKey: key ?? randomBytes(32).toString('hex'),
    policy: webhookTargetPolicy(cfg.WEBHOOKS_ALLOW_PRIVATE_TARGETS, cfg.NODE_ENV),
    // Every replica runs the worker: claims are FOR UPDATE SKIP LOCKED leases (libs/webhooks).
    worker:
      cfg.WEBHOOKS_WORKER_INTERVAL_MS > 0 && key !== null
        ? {
            owner: `${hostname()}-${process.pid}`,
            pollIntervalMs: cfg.WEBHOOKS_WORKER_INTERVAL_MS,
            maxAttempts: cfg.WEBHOOKS_MAX_ATTEMPTS,
            backoffBaseMs: cfg.WEBHOOKS_BACKOFF_BASE_MS,
            backoffMaxMs: Math.max(cfg.WEBHOOKS_BACKOFF_MAX_MS, cfg.WEBHOOKS_BACKOFF_BASE_MS),
            // The spec promises retries at an increasing interval: never shorter than the one before.
            jitter: 'equal',
          }
        : false,
  };
}

/**
 * Webhook subscriptions (`/Webhooks/...`), their delivery log, and the delivery worker. Deliveries are
 * enqueued by LoanEvents (WebhookQueueRepository) in the transaction of each change.
 */
@Module({
  imports: [
    TenantDataModule,
    WebhooksModule.forRootAsync({
      imports: [WebhookPoolModule],
      inject: [LendingConfig, WebhookPoolRepository],
      useFactory: (cfg: LendingConfig, db: WebhookPoolRepository) => webhooksOptions(cfg, db.pool()),
    }),
  ],
  controllers: [WebhooksController],
  providers: [WebhooksService, WebhookSubscriptionsRepository],
})
export class LendingWebhooksModule {}
