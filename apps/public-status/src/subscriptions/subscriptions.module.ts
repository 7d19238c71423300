import { Module, type DynamicModule } from '@nestjs/common';
import { Transactions, AppPoolModule, AppPoolRepository } from '@platform/persistence';
import { service } from '@platform/registry';
import { publicTargetPolicy } from '@platform/network';
import { WebhooksModule } from '@platform/webhooks';
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { PublicStatusConfig } from '../config/public-status.config';
import { MailDeliveryWorker } from './mail-delivery.worker';
import { MailOutboxRepository } from './mail-outbox.unscoped.repository';
import { SubscriptionsController } from './subscriptions.controller';
import { SubscribersRepository } from './subscribers.unscoped.repository';
import { SubscriptionsService } from './subscriptions.service';

/**
 * Anonymous subscriptions and their delivery: the Subscribe/confirm/Unsubscribe routes, the mail
 * worker, and libs/webhooks on the app's pool and schema (its worker delivers webhook notifications).
 * The notifications themselves are written by NotificationsService (in PUBLIC_STATUS_PROVIDERS) inside
 * the incident and maintenance transactions.
 */
@Module({})
export class SubscriptionsModule {
  static register(): DynamicModule {
    return {
      module: SubscriptionsModule,
      imports: [
        WebhooksModule.forRootAsync({
          imports: [AppPoolModule],
          inject: [PublicStatusConfig, AppPoolRepository],
          useFactory: (cfg: PublicStatusConfig, db: AppPoolRepository) => ({
            pool: db.pool(),
            schema: service('public-status').schema,
            // Unset in production: subscriptions are off (nothing can subscribe), the worker does not
            // run, and this throwaway key only lets the module build.
            secretKey: cfg.webhooksSecretKey() ?? randomBytes(32).toString('hex'),
            policy: publicTargetPolicy(cfg.WEBHOOKS_ALLOW_PRIVATE_TARGETS, cfg.NODE_ENV),
            worker:
              cfg.WEBHOOKS_WORKER_INTERVAL_MS > 0 && cfg.webhooksSecretKey() !== null
                ? { owner: `${hostname()}-${process.pid}`, pollIntervalMs: cfg.WEBHOOKS_WORKER_INTERVAL_MS }
                : false,
          }),
        }),
      ],
      controllers: [SubscriptionsController],
      // Stateless, so this module's own instances of the two shared ones are harmless.
      providers: [
        Transactions,
        SubscribersRepository,
        SubscriptionsService,
        MailOutboxRepository,
        MailDeliveryWorker,
      ],
    };
  }
}
