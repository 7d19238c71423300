import { Test } from '@nestjs/testing';
import { ConfigError, loadConfig } from '@platform/config';
import { LendingConfig } from '../../config/lending.config';
import { CHECK_PROVIDERS } from './check-provider.factories';
import { CREDIT_BUREAU_PROVIDER, type CreditBureauProvider } from './check-providers';
import { ProviderTimeoutError, withTimeout } from './provider-call';

const STUB_REFUSED = 'LENDING_PROVIDERS=stub in production needs LENDING_ALLOW_STUB_PROVIDERS=true';

function problems(env: NodeJS.ProcessEnv): string[] {
  try {
    loadConfig(LendingConfig, env);
    return [];
  } catch (e) {
    if (e instanceof ConfigError) return e.problems;
    throw e;
  }
}

describe('the check providers chosen by LENDING_PROVIDERS', () => {
  it('are stubs by default outside production', async () => {
    const cfg = loadConfig(LendingConfig, { NODE_ENV: 'test' });
    expect(cfg.LENDING_PROVIDERS).toBe('stub');
    const mod = await Test.createTestingModule({
      providers: [...CHECK_PROVIDERS, { provide: LendingConfig, useValue: cfg }],
    }).compile();
    expect(mod.get<CreditBureauProvider>(CREDIT_BUREAU_PROVIDER)).toMatchObject({ mode: 'stub' });
  });

  it('refuse to start production on stubs unless explicitly allowed', () => {
    expect(problems({ NODE_ENV: 'production' })).toContain(STUB_REFUSED);
    expect(problems({ NODE_ENV: 'production', LENDING_ALLOW_STUB_PROVIDERS: 'true' })).not.toContain(
      STUB_REFUSED,
    );
    expect(problems({ NODE_ENV: 'development' })).not.toContain(STUB_REFUSED);
  });

  it('refuse `live` at boot while this build has no live adapter', async () => {
    const cfg = loadConfig(LendingConfig, { NODE_ENV: 'test', LENDING_PROVIDERS: 'live' });
    await expect(
      Test.createTestingModule({
        providers: [...CHECK_PROVIDERS, { provide: LendingConfig, useValue: cfg }],
      }).compile(),
    ).rejects.toThrow(/no live .* adapter yet/);
  });

  it('time a provider out after LENDING_PROVIDER_TIMEOUT_MS', async () => {
    const never = new Promise<never>(() => undefined);
    await expect(withTimeout(never, 20)).rejects.toEqual(new ProviderTimeoutError(20));
    await expect(withTimeout(Promise.resolve(7), 20)).resolves.toBe(7);
  });
});
