import { Module, type DynamicModule } from '@nestjs/common';
import { PublicOnlyGuard } from '@platform/auth';
import { TypedConfigModule } from '@platform/config';
import { EnvelopeModule } from '@platform/envelope';
import { HealthModule, MetricsModule, brokerCheck } from '@platform/health';
import { PlatformI18nModule } from '@platform/i18n';
import { BrokerProbeModule } from '@platform/kafka';
import { APP_GUARD } from '@nestjs/core';
import { RelayConfig } from './config/relay.config';
import { RelayController } from './relay/relay.controller';
import { OutboxRepository } from './relay/outbox.repository';
import { RelayMetrics } from './relay/relay.metrics';
import { RelayService } from './relay/relay.service';

const relayDatabaseCheck = {
  name: 'database',
  inject: [OutboxRepository],
  useFactory: (db: OutboxRepository) => () => db.ping(),
};

@Module({ providers: [OutboxRepository], exports: [OutboxRepository] })
class RelayDatabaseModule {}

@Module({})
export class RelayAppModule {
  static register(env: NodeJS.ProcessEnv = process.env): DynamicModule {
    return {
      module: RelayAppModule,
      imports: [
        TypedConfigModule.forRoot(RelayConfig, env),
        PlatformI18nModule.forRoot(),
        EnvelopeModule,
        BrokerProbeModule.forRoot(RelayConfig),
        RelayDatabaseModule,
        MetricsModule.forRoot(),
        HealthModule.forRoot('outbox-relay', [relayDatabaseCheck, brokerCheck], [RelayDatabaseModule], {
          config: RelayConfig,
        }),
      ],
      controllers: [RelayController],
      providers: [RelayService, RelayMetrics, { provide: APP_GUARD, useClass: PublicOnlyGuard }],
    };
  }
}
