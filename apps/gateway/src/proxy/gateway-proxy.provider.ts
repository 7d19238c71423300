import type { Provider } from '@nestjs/common';
import type { Request } from 'express';
import { I18nService } from 'nestjs-i18n';
import { CommonError, EnvelopeExceptionFilter, commonError } from '@platform/envelope';
import { rateLimitRejections } from '@platform/observability';
import { CORS_ORIGIN_SETTINGS, GATEWAY_DEFAULT_LIMITS, ROUTED_SERVICES } from '@platform/registry';
import { MicroCache } from '../cache/micro-cache';
import { GatewayConfig } from '../config/gateway.config';
import { rateLimitHeaders } from '../rate-limit/anonymous-rate-limit';
import { GatewayRateLimit } from '../rate-limit/rate-limit.provider';
import { CorsPolicy, parseOriginMap } from './cors-policy';
import { ReverseProxy, type ProxyFailure } from './reverse-proxy';
import { buildRouteTable, type Upstream } from './route-table';
import { SecurityHeaders } from './security-headers';
import { TrustedProxies } from './trusted-proxies';

/** The proxy as a provider, so the app closes its keep-alive sockets on shutdown. */
export class GatewayProxy extends ReverseProxy {
  onApplicationShutdown(): void {
    this.close();
  }
}

const FAILURE_CODES: Record<ProxyFailure, CommonError> = {
  unavailable: CommonError.UPSTREAM_UNAVAILABLE,
  timeout: CommonError.UPSTREAM_TIMEOUT,
  'too-large': CommonError.PAYLOAD_TOO_LARGE,
  'cors-refused': CommonError.FORBIDDEN,
  'rate-limited': CommonError.RATE_LIMITED,
};

export const gatewayProxyProvider: Provider = {
  provide: GatewayProxy,
  inject: [GatewayConfig, I18nService, GatewayRateLimit],
  useFactory: (cfg: GatewayConfig, i18n: I18nService, rateLimit: GatewayRateLimit) => {
    const filter = new EnvelopeExceptionFilter(i18n);
    const limit = rateLimit.limit;
    return new GatewayProxy({
      upstreams: Object.fromEntries(
        ROUTED_SERVICES.map((s) => [s.name, cfg[s.gateway.upstreamEnv]]),
      ) as Record<Upstream, string>,
      table: buildRouteTable({ ...GATEWAY_DEFAULT_LIMITS, timeoutMs: cfg.GATEWAY_UPSTREAM_TIMEOUT_MS }),
      trustedProxies: new TrustedProxies(cfg.GATEWAY_TRUSTED_PROXIES),
      cors: new CorsPolicy(
        Object.fromEntries(CORS_ORIGIN_SETTINGS.map((name) => [name, parseOriginMap(cfg[name]).map])),
      ),
      security: new SecurityHeaders(cfg.NODE_ENV === 'production'),
      cache:
        cfg.GATEWAY_CACHE_MAX_BYTES > 0
          ? {
              store: new MicroCache<ProxyFailure>({
                maxBytes: cfg.GATEWAY_CACHE_MAX_BYTES,
                maxEntryBytes: cfg.GATEWAY_CACHE_MAX_ENTRY_BYTES,
              }),
              policy: {
                maxTtlSec: cfg.GATEWAY_CACHE_MAX_TTL_SEC,
                maxEntryBytes: cfg.GATEWAY_CACHE_MAX_ENTRY_BYTES,
              },
            }
          : undefined,
      rateLimit: limit
        ? { take: (req, rule) => limit.take(req, rule), headers: rateLimitHeaders }
        : undefined,
      onFailure: (req, res, failure, rule, refused) => {
        if (failure === 'rate-limited')
          rateLimitRejections.inc({ limiter: 'gateway', budget: rule?.rateLimit?.id ?? 'unknown' });
        const details =
          failure === 'too-large' && rule
            ? { maxBodyBytes: rule.limits.maxBodyBytes }
            : refused
              ? { retryAfterSec: refused.retryAfterSec, limit: refused.limit, windowSec: refused.windowSec }
              : {};
        const error = commonError(
          FAILURE_CODES[failure],
          { service: rule?.upstream ?? '', retryAfter: refused?.retryAfterSec ?? 0 },
          details,
        );
        const { status, body } = filter.render(error, req as Request);
        res.statusCode = status;
        for (const [name, value] of Object.entries(rule?.answerHeaders ?? {})) res.setHeader(name, value);
        res.setHeader('content-type', 'application/json; charset=utf-8');
        res.end(JSON.stringify(body));
      },
    });
  },
};
