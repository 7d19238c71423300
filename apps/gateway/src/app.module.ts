import { Module, type DynamicModule } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { PublicOnlyGuard } from '@platform/auth';
import { TypedConfigModule } from '@platform/config';
import { EnvelopeModule } from '@platform/envelope';
import { HealthModule, MetricsModule } from '@platform/health';
import { PlatformI18nModule } from '@platform/i18n';
import { GatewayConfig } from './config/gateway.config';
import { DocsModule } from './docs/docs.module';
import { upstreamReadinessChecks } from './health/upstream-readiness';
import { gatewayProxyProvider } from './proxy/gateway-proxy.provider';
import { gatewayRateLimitProvider } from './rate-limit/rate-limit.provider';

@Module({})
export class GatewayAppModule {
  static register(env: NodeJS.ProcessEnv = process.env): DynamicModule {
    return {
      module: GatewayAppModule,
      imports: [
        TypedConfigModule.forRoot(GatewayConfig, env),
        PlatformI18nModule.forRoot(),
        EnvelopeModule,
        // /metrics on its own port only: the ingress exposes the gateway's port to everyone.
        MetricsModule.onOwnPort(GatewayConfig),
        // Ready when every service behind it is (each also reachable at /health/<service>/ready).
        // Orchestrators probe the gateway's /health/live for readiness instead (libs/registry), and its
        // health report on Kafka says the same: each service behind it reports for itself.
        HealthModule.forRoot('gateway', upstreamReadinessChecks, [], {
          config: GatewayConfig,
          basis: 'live',
        }),
        DocsModule,
      ],
      providers: [
        gatewayRateLimitProvider,
        gatewayProxyProvider,
        { provide: APP_GUARD, useClass: PublicOnlyGuard },
      ],
    };
  }
}
