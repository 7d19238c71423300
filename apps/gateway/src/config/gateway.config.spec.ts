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

describe('GatewayConfig: hardening settings', () => {
  it('defaults to loopback proxies, a 2 s readiness wait, a 64 MiB micro-cache and no widget origins', () => {
    expect(loadConfig(GatewayConfig, {})).toMatchObject({
      GATEWAY_UPSTREAM_TIMEOUT_MS: 30000,
      GATEWAY_TRUSTED_PROXIES: '127.0.0.0/8,::1/128',
      GATEWAY_READY_TIMEOUT_MS: 2000,
      GATEWAY_CACHE_MAX_BYTES: 64 * 1024 * 1024,
      GATEWAY_CACHE_MAX_ENTRY_BYTES: 1024 * 1024,
      GATEWAY_CACHE_MAX_TTL_SEC: 60,
      WIDGET_ORIGINS: '',
    });
  });

  it('reads CIDR lists and per-product origins', () => {
    const cfg = loadConfig(GatewayConfig, {
      GATEWAY_TRUSTED_PROXIES: '10.0.0.0/8, fd00::/8',
      WIDGET_ORIGINS: 'crm=https://crm.example.com,https://app.example.com;erp=https://erp.example.com',
      GATEWAY_CACHE_MAX_BYTES: '0',
    });
    expect(cfg.GATEWAY_TRUSTED_PROXIES).toBe('10.0.0.0/8, fd00::/8');
    expect(cfg.WIDGET_ORIGINS).toContain('erp=');
    expect(cfg.GATEWAY_CACHE_MAX_BYTES).toBe(0);
  });

  it('refuses to boot on a bad CIDR, a bad origin or an out-of-range cache setting, naming it', () => {
    expect(() => loadConfig(GatewayConfig, { GATEWAY_TRUSTED_PROXIES: '10.0.0.0/40' })).toThrow(
      /GATEWAY_TRUSTED_PROXIES: "10.0.0.0\/40" has a prefix length outside 0-32/,
    );
    expect(() => loadConfig(GatewayConfig, { WIDGET_ORIGINS: 'crm=https://crm.example.com/embed' })).toThrow(
      /WIDGET_ORIGINS: "https:\/\/crm.example.com\/embed" \(product crm\) is not an origin/,
    );
    expect(() => loadConfig(GatewayConfig, { GATEWAY_CACHE_MAX_TTL_SEC: '0' })).toThrow(
      /GATEWAY_CACHE_MAX_TTL_SEC/,
    );
    expect(() => loadConfig(GatewayConfig, { GATEWAY_READY_TIMEOUT_MS: '5000' })).toThrow(
      /GATEWAY_READY_TIMEOUT_MS/,
    );
  });
});
