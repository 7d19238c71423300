import type { Pool } from 'pg';
import { loadConfig } from '@platform/config';
import { DEV_WEBHOOKS_SECRET_KEY, VerificationConfig } from '../config/verification.config';
import { webhooksOptions } from './webhook-endpoints.module';

const pool = {} as Pool;
const strong = 'k'.repeat(40);
/** What production needs of the other areas, so that only the webhook settings vary here. */
const PROD = {
  NODE_ENV: 'production',
  REPORT_SIGNING_KEY: 'r'.repeat(40),
  IDENTITY_PROVIDER_ALLOW_SANDBOX: 'true',
};

describe('verification webhooks settings (the same rules as public-status)', () => {
  it('uses the development key outside production; production without a key runs no worker', () => {
    const dev = loadConfig(VerificationConfig, {});
    expect(dev.webhooksSecretKey()).toBe(DEV_WEBHOOKS_SECRET_KEY);
    expect(webhooksOptions(dev, pool)).toMatchObject({
      secretKey: DEV_WEBHOOKS_SECRET_KEY,
      schema: 'verification',
      policy: { allowPrivateTargets: 'off' },
      worker: { pollIntervalMs: 1000, maxAttempts: 15, backoffBaseMs: 60_000, backoffMaxMs: 43_200_000 },
    });
    const prod = loadConfig(VerificationConfig, { ...PROD });
    expect(prod.webhooksSecretKey()).toBeNull();
    const off = webhooksOptions(prod, pool);
    expect(off.worker).toBe(false);
    expect(off.secretKey).not.toBe(DEV_WEBHOOKS_SECRET_KEY);
    const set = loadConfig(VerificationConfig, { ...PROD, WEBHOOKS_SECRET_KEY: strong });
    expect(webhooksOptions(set, pool)).toMatchObject({ secretKey: strong, worker: { maxAttempts: 15 } });
  });

  it('refuses the development key, a short key, an unknown allowance, and the loopback allowance in production', () => {
    expect(() => loadConfig(VerificationConfig, { WEBHOOKS_SECRET_KEY: DEV_WEBHOOKS_SECRET_KEY })).toThrow(
      /WEBHOOKS_SECRET_KEY/,
    );
    expect(() => loadConfig(VerificationConfig, { WEBHOOKS_SECRET_KEY: 'short' })).toThrow(
      /WEBHOOKS_SECRET_KEY/,
    );
    expect(() => loadConfig(VerificationConfig, { WEBHOOKS_ALLOW_PRIVATE_TARGETS: 'all' })).toThrow(
      /WEBHOOKS_ALLOW_PRIVATE_TARGETS/,
    );
    const prodLoopback = loadConfig(VerificationConfig, {
      ...PROD,
      WEBHOOKS_SECRET_KEY: strong,
      WEBHOOKS_ALLOW_PRIVATE_TARGETS: 'loopback',
    });
    expect(() => webhooksOptions(prodLoopback, pool)).toThrow(/production/);
  });

  it('turns the worker off with interval 0 (an enqueue-only replica)', () => {
    expect(
      webhooksOptions(loadConfig(VerificationConfig, { WEBHOOKS_WORKER_INTERVAL_MS: '0' }), pool).worker,
    ).toBe(false);
  });
});
