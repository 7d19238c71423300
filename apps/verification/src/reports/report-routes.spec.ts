import { service, type GatewayRoutePolicy } from '@platform/registry';
import { JWKS_PUBLIC_PATH, REPORTS_PUBLIC_PATH } from './report-views';

/** The gateway's side of the public address (libs/registry): its prefix and its per-address budgets. */
describe('report verification routes in the gateway registry', () => {
  const exposure = service('verification').gateway;
  const routes: readonly GatewayRoutePolicy[] = exposure.routes;
  const route = (path: string) => routes.find((r) => r.path === path);

  it('exposes /verify/v1, where the QR code and the keys point', () => {
    expect(exposure.prefixes).toContain('/verify/v1');
    expect(REPORTS_PUBLIC_PATH.startsWith('/verify/v1/')).toBe(true);
    expect(JWKS_PUBLIC_PATH.startsWith('/verify/v1/')).toBe(true);
  });

  it('limits the anonymous address per client, and opening by password far more strictly, in its own count', () => {
    const all = route('/verify/v1')?.rateLimit;
    const open = route('/verify/v1/reports/*/open')?.rateLimit;
    expect(all).toEqual({ requests: 120, windowSec: 60 });
    expect(open).toEqual({ requests: 5, windowSec: 900 });
    expect(route('/verify/v1/reports/*/check')?.rateLimit).toEqual({ requests: 30, windowSec: 600 });
  });

  it('lets a check carry a PDF of up to 10 MiB, and a password form only a few bytes', () => {
    expect(route('/verify/v1/reports/*/check')?.limits?.maxBodyBytes).toBe(10 * 1024 * 1024);
    expect(route('/verify/v1/reports/*/open')?.limits?.maxBodyBytes).toBe(4096);
  });
});
