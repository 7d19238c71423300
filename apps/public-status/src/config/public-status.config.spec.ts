import { loadConfig } from '@platform/config';
import {
  DEV_SUBSCRIPTION_TOKEN_SECRET,
  DEV_WEBHOOKS_SECRET_KEY,
  PublicStatusConfig,
} from './public-status.config';

describe('PublicStatusConfig subscription secrets', () => {
  const strong = { SUBSCRIPTION_TOKEN_SECRET: 's'.repeat(40), WEBHOOKS_SECRET_KEY: 'k'.repeat(40) };

  it('uses the development defaults outside production, and nothing (subscriptions off) in production', () => {
    const dev = loadConfig(PublicStatusConfig, {});
    expect(dev.subscriptionTokenSecret()).toBe(DEV_SUBSCRIPTION_TOKEN_SECRET);
    expect(dev.webhooksSecretKey()).toBe(DEV_WEBHOOKS_SECRET_KEY);
    const prod = loadConfig(PublicStatusConfig, { NODE_ENV: 'production' });
    expect(prod.subscriptionTokenSecret()).toBeNull();
    expect(prod.webhooksSecretKey()).toBeNull();
    const set = loadConfig(PublicStatusConfig, { NODE_ENV: 'production', ...strong });
    expect(set.subscriptionTokenSecret()).toBe(strong.SUBSCRIPTION_TOKEN_SECRET);
  });

  it('refuses the development defaults and short secrets when set', () => {
    for (const env of [
      { NODE_ENV: 'production', ...strong, WEBHOOKS_SECRET_KEY: DEV_WEBHOOKS_SECRET_KEY },
      { ...strong, SUBSCRIPTION_TOKEN_SECRET: DEV_SUBSCRIPTION_TOKEN_SECRET },
      { NODE_ENV: 'production', ...strong, SUBSCRIPTION_TOKEN_SECRET: 'short' },
    ])
      expect(() => loadConfig(PublicStatusConfig, env)).toThrow(/SECRET/);
  });

  it('refuses a non-SMTP mail URL and a relative public URL', () => {
    expect(() => loadConfig(PublicStatusConfig, { SMTP_URL: 'http://mail' })).toThrow(/SMTP_URL/);
    expect(() => loadConfig(PublicStatusConfig, { PUBLIC_STATUS_URL: '/status' })).toThrow(
      /PUBLIC_STATUS_URL/,
    );
  });
});
