import { Module, type DynamicModule } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { PublicOnlyGuard } from '@platform/auth';
import { TypedConfigModule } from '@platform/config';
import { EnvelopeModule } from '@platform/envelope';
import { HealthModule } from '@platform/health';
import { PlatformI18nModule } from '@platform/i18n';
import { GatewayConfig } from './config/gateway.config';
import { DocsModule } from './docs/docs.module';
import { gatewayProxyProvider } from './proxy/gateway-proxy.provider';

@Module({})
export class GatewayAppModule {
  static register(env: NodeJS.ProcessEnv = process.env): DynamicModule {
    return {
      module: GatewayAppModule,
      imports: [
        TypedConfigModule.forRoot(GatewayConfig, env),
        PlatformI18nModule.forRoot(),
        EnvelopeModule,
        // The gateway has no dependencies of its own to probe; each service's readiness is reachable
        // through it at /health/<service>/ready.
        HealthModule.forRoot('gateway', []),
        DocsModule,
      ],
      providers: [gatewayProxyProvider, { provide: APP_GUARD, useClass: PublicOnlyGuard }],
    };
  }
}
