import { Module, type DynamicModule, type FactoryProvider, type ModuleMetadata } from '@nestjs/common';
import type { Queryable } from '@platform/outbox';
import type { ConsumerRegistration, ContractHandler } from './contract-handler';
import { ConsumerMetrics } from './consumer.metrics';
import { CONSUMER_OPTIONS, type ConsumerModuleOptions } from './consumer.options';
import { ConsumerService } from './consumer.service';

export interface ConsumerModuleAsyncOptions<Tx extends Queryable> {
  imports?: ModuleMetadata['imports'];
  inject?: FactoryProvider['inject'];
  useFactory: (...deps: never[]) => ConsumerModuleOptions<Tx> | Promise<ConsumerModuleOptions<Tx>>;
}

/**
 * Kafka consumers with the inbox: `forRootAsync` once per app (broker config, the schema of the inbox,
 * the transaction runner), then one line per feature:
 *
 * ```ts
 * ConsumerModule.forFeature([{ contract: CalendarEventChanged, group: 'public-status.calendar', handler: CalendarChangedHandler }])
 * ```
 */
@Module({})
export class ConsumerModule {
  static forRootAsync<Tx extends Queryable>(opts: ConsumerModuleAsyncOptions<Tx>): DynamicModule {
    return {
      module: ConsumerModule,
      global: true,
      imports: opts.imports ?? [],
      providers: [
        { provide: CONSUMER_OPTIONS, inject: opts.inject ?? [], useFactory: opts.useFactory },
        ConsumerMetrics,
        ConsumerService,
      ],
      exports: [ConsumerService, ConsumerMetrics],
    };
  }

  /**
   * Handlers are providers of this module; `imports` brings what they inject beyond global providers.
   * Each registration's handler must accept its own contract's payload: the tuple type checks each pair.
   */
  static forFeature<const T extends readonly unknown[]>(
    registrations: { [K in keyof T]: ConsumerRegistration<T[K]> },
    opts: { imports?: ModuleMetadata['imports'] } = {},
  ): DynamicModule {
    const all = registrations as readonly ConsumerRegistration<unknown>[];
    const handlers = [...new Set(all.map((r) => r.handler))];
    return {
      module: ConsumerModule,
      imports: opts.imports ?? [],
      providers: [
        ...handlers,
        {
          // A unique token per call: Nest would otherwise merge two features' registrations into one.
          provide: Symbol('consumer-registrations'),
          inject: [ConsumerService, ...handlers],
          useFactory: (service: ConsumerService, ...instances: ContractHandler<unknown, never>[]) => {
            for (const r of all) service.register(r, instances[handlers.indexOf(r.handler)]);
            return all;
          },
        },
      ],
    };
  }
}
