import { ConfigError, loadConfig } from '@platform/config';
import { TenantDbCrypto } from '../tenancy/tenant-db-crypto';
import { LendingConfig } from './lending.config';

describe('lending tenancy settings (what an operator reads when they are wrong)', () => {
  const problems = (env: Record<string, string>) => {
    try {
      loadConfig(LendingConfig, env);
      return [];
    } catch (err) {
      return (err as ConfigError).problems;
    }
  };

  it('names the registry key when it is missing or short in database-per-tenant mode, and not otherwise', () => {
    for (const key of ['', 'short'])
      expect(problems({ LENDING_TENANCY_MODE: 'database-per-tenant', LENDING_TENANT_DB_KEY: key })).toEqual([
        expect.stringContaining('LENDING_TENANT_DB_KEY must be at least 16 characters'),
      ]);
    expect(problems({ LENDING_TENANCY_MODE: 'shared' })).toEqual([]);
  });

  it('says which key cannot open a registry entry, instead of a bare crypto error', () => {
    const sealed = new TenantDbCrypto('the-key-that-sealed-it').seal('postgres://u:p@db/tenant');
    expect(new TenantDbCrypto('the-key-that-sealed-it').open(sealed)).toBe('postgres://u:p@db/tenant');
    expect(() => new TenantDbCrypto('a-different-key-0123').open(sealed)).toThrow(
      /cannot be opened with LENDING_TENANT_DB_KEY: it was sealed under another key, or altered/,
    );
  });
});
