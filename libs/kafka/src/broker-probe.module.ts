import { Module, type DynamicModule } from '@nestjs/common';
import type { KafkaClientConfig } from '@platform/config';
import { BrokerProbe } from './broker-probe';

/** Makes one `BrokerProbe` available app-wide for the readiness check. */
@Module({})
export class BrokerProbeModule {
  static forRoot(configToken: new () => KafkaClientConfig): DynamicModule {
    return {
      module: BrokerProbeModule,
      global: true,
      providers: [
        {
          provide: BrokerProbe,
          inject: [configToken],
          useFactory: (c: KafkaClientConfig) => new BrokerProbe(c),
        },
      ],
      exports: [BrokerProbe],
    };
  }
}
