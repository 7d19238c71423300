import { IsIn, IsInt, IsNumber, IsOptional, IsString, IsUrl, Matches, Max, Min } from 'class-validator';
import { KafkaClientConfig, Parses, Sensitive } from '@platform/config';
import {
  CORS_ORIGIN_SETTINGS,
  GATEWAY,
  GATEWAY_DEFAULT_LIMITS,
  ROUTED_SERVICES,
  type UpstreamEnv,
} from '@platform/registry';
import { parseOriginMap } from '../proxy/cors-policy';
import { cidrListProblems } from '@platform/network';
import { DEFAULT_TRUSTED_PROXIES } from '../proxy/trusted-proxies';

const url = { require_tld: false, require_protocol: true, protocols: ['http', 'https'] };

const UPSTREAM_DEFAULTS = Object.fromEntries(
  ROUTED_SERVICES.map((s) => [s.gateway.upstreamEnv, `http://127.0.0.1:${s.port}`]),
) as Record<UpstreamEnv, string>;

/**
 * One URL setting per service behind the gateway (CALENDAR_URL, LENDING_URL, ...), named and defaulted
 * by the service registry, so a new service gets its setting without an edit here. They are own fields
 * of every instance, which is what loadConfig reads, and validated like declared ones.
 */
class UpstreamUrlSettings extends KafkaClientConfig {
  /** The gateway talks to Kafka only to publish its own health report (libs/health). */
  override KAFKA_CLIENT_ID = GATEWAY.name;
  constructor() {
    super();
    Object.assign(this, UPSTREAM_DEFAULTS);
  }
}
for (const key of Object.keys(UPSTREAM_DEFAULTS)) IsUrl(url)(UpstreamUrlSettings.prototype, key);

const WithUpstreamUrls = UpstreamUrlSettings as new () => UpstreamUrlSettings & Record<UpstreamEnv, string>;

type OriginSetting = (typeof CORS_ORIGIN_SETTINGS)[number];

/**
 * One per-product origins setting per CORS group the registry declares (WIDGET_ORIGINS, ...), like the
 * upstream URLs: `productId=https://a.example,https://b.example;other=https://c.example`, empty for none.
 */
class OriginSettings extends WithUpstreamUrls {
  constructor() {
    super();
    Object.assign(this, Object.fromEntries(CORS_ORIGIN_SETTINGS.map((name) => [name, ''])));
  }
}
for (const key of CORS_ORIGIN_SETTINGS)
  Parses((text) => parseOriginMap(text).problems)(OriginSettings.prototype, key);

const WithOriginSettings = OriginSettings as new () => OriginSettings & Record<OriginSetting, string>;

export class GatewayConfig extends WithOriginSettings {
  override PORT = GATEWAY.port;
  /**
   * Idle budget for an upstream answer on routes whose registry entry declares no timeout of its own
   * (libs/registry GATEWAY_DEFAULT_LIMITS); streaming responses reset it on every chunk.
   */
  @IsInt() @Min(100) GATEWAY_UPSTREAM_TIMEOUT_MS = GATEWAY_DEFAULT_LIMITS.timeoutMs;
  /**
   * Peers whose X-Forwarded-For/-Proto/-Host are believed (CIDR blocks, IPv4 and IPv6, comma
   * separated). Any other peer's are replaced by what the gateway sees. Loopback by default: behind an
   * ingress or load balancer, list its addresses.
   */
  @Parses(cidrListProblems) GATEWAY_TRUSTED_PROXIES = DEFAULT_TRUSTED_PROXIES;
  /**
   * Port of the gateway's Prometheus `/metrics` (libs/health MetricsModule.onOwnPort), never its own
   * port: the ingress sends every path there. 0 serves none (development); the deployments set 9464.
   */
  @IsInt() @Min(0) @Max(65535) METRICS_PORT = 0;
  /** How long /health/ready waits for each service's readiness (all are asked at once). */
  @IsInt() @Min(100) @Max(2400) GATEWAY_READY_TIMEOUT_MS = 2000;
  /** Bytes the micro-cache of anonymous GETs may hold on this replica; 0 turns it off. */
  @IsInt() @Min(0) GATEWAY_CACHE_MAX_BYTES = 64 * 1024 * 1024;
  /** Largest answer the micro-cache keeps. */
  @IsInt() @Min(1) GATEWAY_CACHE_MAX_ENTRY_BYTES = 1024 * 1024;
  /** Longest an answer is served from the micro-cache, whatever its max-age says. */
  @IsInt() @Min(1) @Max(3600) GATEWAY_CACHE_MAX_TTL_SEC = 60;
  /**
   * Per-IP budgets of the anonymous routes the registry marks (decision 0022): `on` shares them across
   * replicas through PostgreSQL (DATABASE_URL); `off` limits nothing and opens no database connection.
   */
  @IsIn(['on', 'off']) GATEWAY_RATE_LIMIT = 'on';
  /** Scales every registry budget (2 doubles them), so an operator can retune without a release. */
  @IsNumber() @Min(0.01) @Max(1_000_000) GATEWAY_RATE_LIMIT_MULTIPLIER = 1;
  /**
   * Most tokens one replica claims from PostgreSQL at once (a budget's lease is a twentieth of it, at
   * least 1, at most this). A replica holds at most one lease of a client's budget unused.
   */
  @IsInt() @Min(1) @Max(100_000) GATEWAY_RATE_LIMIT_LEASE_MAX = 1000;
  /** Client budgets one replica keeps in memory; the oldest go beyond it (their unused tokens are lost). */
  @IsInt() @Min(100) GATEWAY_RATE_LIMIT_MAX_KEYS = 100_000;
  /** IPv6 clients are counted per network of this prefix length (one subscriber holds a /64). */
  @IsInt() @Min(32) @Max(128) GATEWAY_RATE_LIMIT_IPV6_PREFIX = 64;
  /** The rate-limit leases' database (the gateway's own schema, migrated at start); unused when off. */
  @Sensitive()
  @Matches(/^postgres(ql)?:\/\//, { message: 'DATABASE_URL must be a postgres:// URL' })
  DATABASE_URL = 'postgres://postgres:postgres@127.0.0.1:5432/platform';
  /** One claim at a time per bucket: a few connections are plenty. */
  @IsInt() @Min(1) @Max(50) DB_POOL_MAX = 4;
  /**
   * Who may read the API reference at /docs: `open` to anyone, `login` only with `DOCS_LOGIN`
   * credentials (HTTP Basic). `auto`: open in development and test, login in production.
   */
  @IsIn(['auto', 'open', 'login']) DOCS_ACCESS = 'auto';
  /** `user:password` for the reference when it is closed; empty keeps it closed to everyone. */
  @Sensitive()
  @IsOptional()
  @IsString()
  @Matches(/^$|^[^:\s]+:.{12,}$/, {
    message: 'DOCS_LOGIN must be user:password with a password of 12+ characters',
  })
  DOCS_LOGIN = '';
}
