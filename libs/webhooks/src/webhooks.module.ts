import {
  Inject,
  Injectable,
  Module,
  type DynamicModule,
  type FactoryProvider,
  type ModuleMetadata,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
} from '@nestjs/common';
import type { Pool } from 'pg';
import { WebhookDeliveries } from './webhook-deliveries';
import { WebhookDeliveryWorker, type WebhookWorkerOptions } from './webhook-delivery.worker';
import { WebhookSecretBox } from './webhook-secret-box';
import { WebhookSubscriptions } from './webhook-subscriptions.service';
import type { HostResolver, PublicTargetPolicy } from '@platform/network';

export interface WebhooksModuleOptions {
  pool: Pool;
  schema: string;
  /** `WEBHOOKS_SECRET_KEY` (sensitive), and older keys still opening existing rows. */
  secretKey: string;
  olderSecretKeys?: string[];
  /** From `publicTargetPolicy(config.WEBHOOKS_ALLOW_PRIVATE_TARGETS, config.NODE_ENV)`. */
  policy: PublicTargetPolicy;
  resolve?: HostResolver;
  rotationOverlapSeconds?: number;
  /** Worker settings; `false` for a replica that only enqueues (the worker then never starts). */
  worker: Omit<WebhookWorkerOptions, 'secretBox' | 'policy' | 'resolve'> | false;
}

export const WEBHOOKS_OPTIONS = Symbol('WEBHOOKS_OPTIONS');

/** Starts the worker with the app and stops it (after its round in flight) on shutdown. */
@Injectable()
export class WebhookWorkerLifecycle implements OnApplicationBootstrap, OnApplicationShutdown {
  constructor(@Inject(WebhookDeliveryWorker) private readonly worker: WebhookDeliveryWorker | null) {}

  onApplicationBootstrap(): void {
    this.worker?.start();
  }

  async onApplicationShutdown(): Promise<void> {
    await this.worker?.stop();
  }
}

/**
 * Thin Nest wiring of the plain classes: `WebhookSubscriptions`, `WebhookDeliveries` and
 * `WebhookDeliveryWorker` (null when `worker: false`) become injectable. Enqueueing needs no provider:
 * call `enqueueWebhook(tx, schema, ...)` in the repository that writes the business change.
 */
@Module({})
export class WebhooksModule {
  static forRootAsync(options: {
    imports?: ModuleMetadata['imports'];
    inject?: FactoryProvider['inject'];
    useFactory: (...args: never[]) => WebhooksModuleOptions | Promise<WebhooksModuleOptions>;
  }): DynamicModule {
    const box = (o: WebhooksModuleOptions) => new WebhookSecretBox(o.secretKey, o.olderSecretKeys);
    return {
      module: WebhooksModule,
      imports: options.imports ?? [],
      providers: [
        { provide: WEBHOOKS_OPTIONS, inject: options.inject ?? [], useFactory: options.useFactory },
        {
          provide: WebhookSubscriptions,
          inject: [WEBHOOKS_OPTIONS],
          useFactory: (o: WebhooksModuleOptions) =>
            new WebhookSubscriptions(o.pool, o.schema, {
              secretBox: box(o),
              policy: o.policy,
              resolve: o.resolve,
              rotationOverlapSeconds: o.rotationOverlapSeconds,
            }),
        },
        {
          provide: WebhookDeliveries,
          inject: [WEBHOOKS_OPTIONS],
          useFactory: (o: WebhooksModuleOptions) => new WebhookDeliveries(o.pool, o.schema),
        },
        {
          provide: WebhookDeliveryWorker,
          inject: [WEBHOOKS_OPTIONS],
          useFactory: (o: WebhooksModuleOptions) =>
            o.worker === false
              ? null
              : new WebhookDeliveryWorker(o.pool, o.schema, {
                  ...o.worker,
                  secretBox: box(o),
                  policy: o.policy,
                  resolve: o.resolve,
                }),
        },
        WebhookWorkerLifecycle,
      ],
      exports: [WebhookSubscriptions, WebhookDeliveries, WebhookDeliveryWorker],
    };
  }
}
