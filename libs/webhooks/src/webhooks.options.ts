import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { IsIn, IsInt, IsNotIn, Max, Min, ValidateIf } from 'class-validator';
import { Sensitive } from '@platform/config';
import { MinChars } from '@platform/envelope';
import type { RetrySchedule } from '@platform/network';
import { publicTargetPolicy } from '@platform/network';
import type { WebhooksModuleOptions } from './webhooks.module';

/** The WEBHOOKS_* settings of an app's config (the same names and rules in every app that sends webhooks). */
export interface WebhooksConfig {
  NODE_ENV: string;
  WEBHOOKS_ALLOW_PRIVATE_TARGETS: string;
  /** 0: no worker on this replica (it only enqueues). */
  WEBHOOKS_WORKER_INTERVAL_MS: number;
  WEBHOOKS_MAX_ATTEMPTS: number;
  WEBHOOKS_BACKOFF_BASE_MS: number;
  WEBHOOKS_BACKOFF_MAX_MS: number;
  /** The key, the development one outside production, or null: webhooks are off. */
  webhooksSecretKey(): string | null;
}

/** A typed config class (libs/config) with the NODE_ENV every app has. */
// A mixin's base must take `any[]` (TypeScript's mixin rule); the config classes take no arguments.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type ConfigClass = new (...args: any[]) => { NODE_ENV: string };

/**
 * The WEBHOOKS_* settings, declared once for every app that runs the webhook API (lending,
 * verification): `class LendingConfig extends withWebhookSettings(DataServiceConfig, DEV_KEY)`. The
 * app's own limits (subscriptions per organization) stay in its class.
 */
export function withWebhookSettings<B extends ConfigClass>(Base: B, devSecretKey: string) {
  class WebhookSettings extends Base implements WebhooksConfig {
    /**
     * Key of the subscription secrets' encryption at rest: at least 32 characters, not the development
     * default. Unset: the development default outside production; in production the webhook routes
     * answer 503, no delivery is enqueued and no worker runs until it is set (libs/registry `secrets`).
     */
    @Sensitive()
    @ValidateIf((c: WebhookSettings) => c.WEBHOOKS_SECRET_KEY !== '')
    @MinChars(32, { message: 'WEBHOOKS_SECRET_KEY must have at least 32 characters' })
    @IsNotIn([devSecretKey], { message: 'WEBHOOKS_SECRET_KEY must not be the development default' })
    WEBHOOKS_SECRET_KEY = '';
    /** Test only (`loopback`): lets subscriptions use a local receiver over http; refused in production. */
    @IsIn(['off', 'loopback']) WEBHOOKS_ALLOW_PRIVATE_TARGETS: 'off' | 'loopback' = 'off';
    /** How often each replica's webhook worker polls (SKIP LOCKED leases: every replica may); 0: off. */
    @IsInt() @Min(0) @Max(3_600_000) WEBHOOKS_WORKER_INTERVAL_MS = 1000;
    /** Attempts of one delivery before it is dead (a redrive starts a new budget). */
    @IsInt() @Min(1) @Max(50) WEBHOOKS_MAX_ATTEMPTS = 15;
    /**
     * Interval after the first failure; it doubles per failure up to WEBHOOKS_BACKOFF_MAX_MS (the app
     * chooses the jitter: `webhooksOptionsFrom`'s `retries`).
     */
    @IsInt() @Min(10) @Max(3_600_000) WEBHOOKS_BACKOFF_BASE_MS = 60_000;
    @IsInt() @Min(10) @Max(7 * 86_400_000) WEBHOOKS_BACKOFF_MAX_MS = 12 * 3_600_000;

    /** The webhook secret-box key, or null when webhooks are off (production without one). */
    webhooksSecretKey(): string | null {
      if (this.WEBHOOKS_SECRET_KEY) return this.WEBHOOKS_SECRET_KEY;
      return this.NODE_ENV === 'production' ? null : devSecretKey;
    }
  }
  return WebhookSettings;
}

/** libs/webhooks wired from an app's config, on its pool and in its schema. */
export function webhooksOptionsFrom(
  cfg: WebhooksConfig,
  pool: WebhooksModuleOptions['pool'],
  schema: string,
  retries: Pick<RetrySchedule, 'jitter'> = {},
): WebhooksModuleOptions {
  const key = cfg.webhooksSecretKey();
  return {
    pool,
    schema,
    // Unset in production: the routes answer 503, nothing is enqueued or can subscribe, the worker does
    // not run, and this throwaway key only lets the module build.
    secretKey: key ?? randomBytes(32).toString('hex'),
    policy: publicTargetPolicy(cfg.WEBHOOKS_ALLOW_PRIVATE_TARGETS, cfg.NODE_ENV),
    // Every replica runs the worker: claims are FOR UPDATE SKIP LOCKED leases.
    worker:
      cfg.WEBHOOKS_WORKER_INTERVAL_MS > 0 && key !== null
        ? {
            owner: `${hostname()}-${process.pid}`,
            pollIntervalMs: cfg.WEBHOOKS_WORKER_INTERVAL_MS,
            maxAttempts: cfg.WEBHOOKS_MAX_ATTEMPTS,
            backoffBaseMs: cfg.WEBHOOKS_BACKOFF_BASE_MS,
            backoffMaxMs: Math.max(cfg.WEBHOOKS_BACKOFF_MAX_MS, cfg.WEBHOOKS_BACKOFF_BASE_MS),
            ...retries,
          }
        : false,
  };
}
