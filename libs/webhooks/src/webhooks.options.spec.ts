import { IsIn } from 'class-validator';
import { ConfigError, describeConfig, loadConfig } from '@platform/config';
import { withWebhookSettings } from './webhooks.options';

const DEV_KEY = 'dev-only-test-webhooks-secret-key';

class BaseConfig {
  @IsIn(['development', 'test', 'production']) NODE_ENV = 'development';
}

class AppConfig extends withWebhookSettings(BaseConfig, DEV_KEY) {}

describe('withWebhookSettings', () => {
  it('declares the WEBHOOKS_* settings with their defaults and masks the key', () => {
    const key = 'k'.repeat(40);
    const cfg = loadConfig(AppConfig, { WEBHOOKS_SECRET_KEY: key, WEBHOOKS_MAX_ATTEMPTS: '3' });
    expect(cfg).toMatchObject({
      WEBHOOKS_ALLOW_PRIVATE_TARGETS: 'off',
      WEBHOOKS_WORKER_INTERVAL_MS: 1000,
      WEBHOOKS_MAX_ATTEMPTS: 3,
      WEBHOOKS_BACKOFF_BASE_MS: 60_000,
      WEBHOOKS_BACKOFF_MAX_MS: 12 * 3_600_000,
    });
    expect(cfg.webhooksSecretKey()).toBe(key);
    expect(describeConfig(cfg).WEBHOOKS_SECRET_KEY).toBe('***');
  });

  it('refuses a short key and the development key; without one, dev falls back and production is off', () => {
    expect(() => loadConfig(AppConfig, { WEBHOOKS_SECRET_KEY: 'short' })).toThrow(ConfigError);
    expect(() => loadConfig(AppConfig, { WEBHOOKS_SECRET_KEY: DEV_KEY })).toThrow(/development default/);
    expect(() => loadConfig(AppConfig, { WEBHOOKS_ALLOW_PRIVATE_TARGETS: 'all' })).toThrow(ConfigError);
    expect(loadConfig(AppConfig, {}).webhooksSecretKey()).toBe(DEV_KEY);
    expect(loadConfig(AppConfig, { NODE_ENV: 'production' }).webhooksSecretKey()).toBeNull();
  });
});
