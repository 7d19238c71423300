import { ConfigError, loadConfig } from '@platform/config';
import { ROUTED_SERVICES } from '@platform/registry';
import { GatewayConfig } from './gateway.config';

describe('GatewayConfig', () => {
  it('has one upstream URL per routed service, defaulting to its development port', () => {
    const cfg = loadConfig(GatewayConfig, {});
    expect(cfg).toMatchObject({
      PORT: 3000,
      CALENDAR_URL: 'http://127.0.0.1:3001',
      PUBLIC_STATUS_URL: 'http://127.0.0.1:3002',
      LENDING_URL: 'http://127.0.0.1:3003',
      VERIFICATION_URL: 'http://127.0.0.1:3004',
      OUTBOX_RELAY_URL: 'http://127.0.0.1:3005',
    });
    for (const s of ROUTED_SERVICES) expect(cfg[s.gateway.upstreamEnv]).toBe(`http://127.0.0.1:${s.port}`);
  });

  it('reads the upstream URLs from their environment variables', () => {
    const cfg = loadConfig(GatewayConfig, {
      LENDING_URL: 'http://lending',
      OUTBOX_RELAY_URL: 'https://relay:8443',
    });
    expect(cfg.LENDING_URL).toBe('http://lending');
    expect(cfg.OUTBOX_RELAY_URL).toBe('https://relay:8443');
    expect(cfg.CALENDAR_URL).toBe('http://127.0.0.1:3001');
  });

  it('refuses to boot on a bad upstream URL, naming the setting', () => {
    expect(() => loadConfig(GatewayConfig, { VERIFICATION_URL: 'verification:3000' })).toThrow(ConfigError);
    expect(() => loadConfig(GatewayConfig, { CALENDAR_URL: 'ftp://calendar' })).toThrow(/CALENDAR_URL/);
  });
});
