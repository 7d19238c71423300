import { Module, type DynamicModule } from '@nestjs/common';
import { Transactions, AppPoolModule, AppPoolRepository } from '@platform/persistence';
import { service } from '@platform/registry';
import { WebhooksModule, webhooksOptionsFrom, type WebhooksModuleOptions } from '@platform/webhooks';
import { VerificationConfig } from '../config/verification.config';
import { WebhookEndpointsController } from './webhook-endpoints.controller';
import { WebhookEndpointsRepository } from './webhook-endpoints.unscoped.repository';
import { WebhookEndpointsService } from './webhook-endpoints.service';

/** libs/webhooks wired from verification's config: the same settings and rules as lending. */
export function webhooksOptions(
  cfg: VerificationConfig,
  pool: WebhooksModuleOptions['pool'],
): WebhooksModuleOptions {
  return webhooksOptionsFrom(cfg, pool, service('verification').schema);
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
          imports: [AppPoolModule],
          inject: [VerificationConfig, AppPoolRepository],
          useFactory: (cfg: VerificationConfig, db: AppPoolRepository) => webhooksOptions(cfg, db.pool()),
        }),
      ],
      controllers: [WebhookEndpointsController],
      // Transactions is stateless: this module's own instance is harmless.
      providers: [Transactions, WebhookEndpointsService, WebhookEndpointsRepository],
    };
  }
}
