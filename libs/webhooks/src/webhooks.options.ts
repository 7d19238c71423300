import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
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
