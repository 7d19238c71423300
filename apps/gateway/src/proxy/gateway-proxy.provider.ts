import type { Provider } from '@nestjs/common';
import type { Request } from 'express';
import { I18nService } from 'nestjs-i18n';
import { CommonError, EnvelopeExceptionFilter, commonError } from '@platform/envelope';
import { ROUTED_SERVICES } from '@platform/registry';
import { GatewayConfig } from '../config/gateway.config';
import { ReverseProxy } from './reverse-proxy';
import type { Upstream } from './route-table';

/** The proxy as a provider, so the app closes its keep-alive sockets on shutdown. */
export class GatewayProxy extends ReverseProxy {
  onApplicationShutdown(): void {
    this.close();
  }
}

export const gatewayProxyProvider: Provider = {
  provide: GatewayProxy,
  inject: [GatewayConfig, I18nService],
  useFactory: (cfg: GatewayConfig, i18n: I18nService) => {
    const filter = new EnvelopeExceptionFilter(i18n);
    return new GatewayProxy({
      upstreams: Object.fromEntries(
        ROUTED_SERVICES.map((s) => [s.name, cfg[s.gateway.upstreamEnv]]),
      ) as Record<Upstream, string>,
      timeoutMs: cfg.GATEWAY_UPSTREAM_TIMEOUT_MS,
      onFailure: (req, res, failure, upstream) => {
        const code = failure === 'timeout' ? CommonError.UPSTREAM_TIMEOUT : CommonError.UPSTREAM_UNAVAILABLE;
        const { status, body } = filter.render(commonError(code, { service: upstream }), req as Request);
        res.statusCode = status;
        res.setHeader('content-type', 'application/json; charset=utf-8');
        res.end(JSON.stringify(body));
      },
    });
  },
};
