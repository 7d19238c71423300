import {
  Logger,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
  type Provider,
} from '@nestjs/common';
import { GatewayConfig } from '../config/gateway.config';
import { TrustedProxies } from '../proxy/trusted-proxies';
import { AnonymousRateLimit } from './anonymous-rate-limit';
import { LeaseLimiter } from './lease-limiter';
import { LeaseRepository } from './lease.repository';

/** Rows of ended windows are kept this much longer than the longest window in use. */
const KEEP_SEC = 2 * 24 * 3600;

/**
 * The per-IP budgets with their store's life cycle: connected and migrated before the gateway listens
 * (a database that is away only delays sharing, see LeaseRepository), closed on shutdown. `limit` is
 * undefined when GATEWAY_RATE_LIMIT is off: then the gateway opens no database connection at all.
 */
export class GatewayRateLimit implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('GatewayRateLimit');
  readonly limit?: AnonymousRateLimit;
  private readonly store?: LeaseRepository;

  constructor(cfg: GatewayConfig) {
    if (cfg.GATEWAY_RATE_LIMIT !== 'on') return;
    this.store = new LeaseRepository({
      url: cfg.DATABASE_URL,
      poolMax: cfg.DB_POOL_MAX,
      instanceId: cfg.INSTANCE_ID,
      keepSec: KEEP_SEC,
      onError: (message) => this.logger.warn(message),
    });
    const limiter = new LeaseLimiter(this.store, {
      maxLease: cfg.GATEWAY_RATE_LIMIT_LEASE_MAX,
      maxKeys: cfg.GATEWAY_RATE_LIMIT_MAX_KEYS,
      onStoreError: (err) =>
        this.logger.warn(`rate-limit claims failing, counting per replica: ${(err as Error).message}`),
    });
    this.limit = new AnonymousRateLimit(limiter, new TrustedProxies(cfg.GATEWAY_TRUSTED_PROXIES), {
      multiplier: cfg.GATEWAY_RATE_LIMIT_MULTIPLIER,
      ipv6Prefix: cfg.GATEWAY_RATE_LIMIT_IPV6_PREFIX,
    });
  }

  async onApplicationBootstrap(): Promise<void> {
    await this.store?.start();
  }

  async onApplicationShutdown(): Promise<void> {
    await this.store?.close();
  }
}

export const gatewayRateLimitProvider: Provider = {
  provide: GatewayRateLimit,
  inject: [GatewayConfig],
  useFactory: (cfg: GatewayConfig) => new GatewayRateLimit(cfg),
};
