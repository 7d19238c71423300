import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { Module, type DynamicModule } from '@nestjs/common';
import { Transactions } from '@platform/persistence';
import { service } from '@platform/registry';
import { WebhooksModule, webhookTargetPolicy, type WebhooksModuleOptions } from '@platform/webhooks';
import { VerificationConfig } from '../config/verification.config';
import { WebhookEndpointsController } from './webhook-endpoints.controller';
import { WebhookEndpointsRepository } from './webhook-endpoints.repository';
import { WebhookEndpointsService } from './webhook-endpoints.service';
import { WebhookPoolModule, WebhookPoolRepository } from './webhook-pool.repository';

/** libs/webhooks wired from verification's config: the same settings and rules as public-status. */
export function webhooksOptions(
  cfg: VerificationConfig,
  pool: WebhooksModuleOptions['pool'],
): WebhooksModuleOptions {
  const key = cfg.webhooksSecretKey();
  return {
    pool,
    schema: service('verification').schema,
    // Unset in production: the endpoint routes answer 503, nothing can subscribe, the worker does not
    // run, and this throwaway key only lets the module build.
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
          }
        : false,
  };
}

/**
 * Webhook endpoints (`/api/v1/webhook-endpoints`), their delivery log, and the delivery worker.
 * Deliveries are written by VerificationEventsRepository in the transaction of each change.
 */
@Module({})
export class WebhookEndpointsModule {
  static register(): DynamicModule {
    return {
      module: WebhookEndpointsModule,
      imports: [
        WebhooksModule.forRootAsync({
          imports: [WebhookPoolModule],
          inject: [VerificationConfig, WebhookPoolRepository],
          useFactory: (cfg: VerificationConfig, db: WebhookPoolRepository) => webhooksOptions(cfg, db.pool()),
        }),
      ],
      controllers: [WebhookEndpointsController],
      // Transactions is stateless: this module's own instance is harmless.
      providers: [Transactions, WebhookEndpointsService, WebhookEndpointsRepository],
    };
  }
}
