import { Module, type DynamicModule } from '@nestjs/common';
import { Transactions, AppPoolModule, AppPoolRepository } from '@platform/persistence';
import { service } from '@platform/registry';
import { WebhooksModule, webhooksOptionsFrom } from '@platform/webhooks';
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
          // Unset key in production: subscriptions are off (nothing can subscribe), the worker does not run.
          useFactory: (cfg: PublicStatusConfig, db: AppPoolRepository) =>
            webhooksOptionsFrom(cfg, db.pool(), service('public-status').schema),
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
