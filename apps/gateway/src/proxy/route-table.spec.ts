import { GATEWAY_DEFAULT_LIMITS, GATEWAY_HEALTH_LIMITS } from '@platform/registry';
import { ROUTE_TABLE, buildRouteTable, matchRoute } from './route-table';

describe('gateway route table', () => {
  it.each([
    ['/Calendar/upsert', 'calendar', '/Calendar/upsert'],
    ['/calendar/events?from=1', 'calendar', '/calendar/events?from=1'],
    ['/PublicStatus/Products', 'public-status', '/PublicStatus/Products'],
    [
      '/api/v1/verification-cases/abc/summary/pdf',
      'verification',
      '/api/v1/verification-cases/abc/summary/pdf',
    ],
    [
      '/Applications/GetApplications?Offset=0&Count=10',
      'lending',
      '/Applications/GetApplications?Offset=0&Count=10',
    ],
    ['/public/customer/loans', 'lending', '/public/customer/loans'],
    ['/tax-reporting/drafts', 'lending', '/tax-reporting/drafts'],
    ['/health/calendar/ready', 'calendar', '/health/ready'],
    ['/health/outbox-relay/live', 'outbox-relay', '/health/live'],
  ])('%s goes to %s as %s', (url, upstream, path) => {
    expect(matchRoute(url)).toEqual({ rule: expect.objectContaining({ upstream }), upstreamPath: path });
  });

  it.each(['/Calendarx', '/health/live', '/', '/api/v2/x', '/loansharks'])('%s matches no service', (url) => {
    expect(matchRoute(url)).toBeUndefined();
  });

  it('has no prefix that shadows a later, more specific one', () => {
    ROUTE_TABLE.forEach((rule, i) => {
      ROUTE_TABLE.slice(i + 1).forEach((later) => {
        expect(later.prefix.toLowerCase().startsWith(`${rule.prefix.toLowerCase()}/`)).toBe(false);
      });
    });
  });
});

describe('gateway route limits and CORS groups (from the registry)', () => {
  const rule = (url: string) => matchRoute(url)?.rule;

  it('gives routes without their own limits the defaults, and the configured timeout', () => {
    expect(rule('/Calendar/upsert')?.limits).toEqual(GATEWAY_DEFAULT_LIMITS);
    expect(rule('/loans/L-1')?.limits).toEqual(GATEWAY_DEFAULT_LIMITS);
    const table = buildRouteTable({ ...GATEWAY_DEFAULT_LIMITS, timeoutMs: 1234 });
    expect(matchRoute('/Calendar/upsert', table)?.rule.limits.timeoutMs).toBe(1234);
    // A service's own timeout is not replaced by the default's setting.
    expect(matchRoute('/PublicStatus/Products', table)?.rule.limits.timeoutMs).toBe(10_000);
  });

  it('applies a service-wide override and a route override under a wildcard segment', () => {
    expect(rule('/PublicStatus/Products')?.limits).toEqual({ timeoutMs: 10_000, maxBodyBytes: 16 * 1024 });
    const upload = matchRoute('/api/v1/verification-cases/C-1/documents/signed-upload-url?x=1');
    expect(upload).toEqual({
      rule: expect.objectContaining({ upstream: 'verification' }),
      upstreamPath: '/api/v1/verification-cases/C-1/documents/signed-upload-url?x=1',
    });
    expect(upload?.rule.limits).toEqual({ timeoutMs: 120_000, maxBodyBytes: 25 * 1024 * 1024 });
    expect(rule('/API/V1/Verification-Cases/c-2/Summary/pdf')?.limits.timeoutMs).toBe(60_000);
    // The wildcard is exactly one segment, on a boundary.
    expect(rule('/api/v1/verification-cases/documents')?.limits).toEqual(GATEWAY_DEFAULT_LIMITS);
    expect(rule('/api/v1/verification-cases/C-1/documentsx')?.limits).toEqual(GATEWAY_DEFAULT_LIMITS);
    expect(rule('/api/v1/verification-cases')?.limits).toEqual(GATEWAY_DEFAULT_LIMITS);
  });

  it('gives health probes a short timeout and no body', () => {
    expect(rule('/health/lending/ready')?.limits).toEqual(GATEWAY_HEALTH_LIMITS);
  });

  it('puts public status in the public group, the widget in the per-product group, the rest in none', () => {
    expect(rule('/PublicStatus/Products')?.cors).toEqual({ kind: 'public', methods: ['GET', 'HEAD'] });
    expect(rule('/calendar/widget/crm/week')?.cors).toMatchObject({
      kind: 'per-product',
      originsSetting: 'WIDGET_ORIGINS',
    });
    expect(rule('/Calendar/widget')?.upstream).toBe('calendar');
    for (const url of [
      '/Calendar/events',
      '/Calendar/widgets',
      '/api/v1/x',
      '/loans',
      '/health/public-status/ready',
    ])
      expect(rule(url)?.cors).toBeNull();
  });
});

describe('per-IP budgets of the public status routes', () => {
  const budget = (url: string) => matchRoute(url)?.rule.rateLimit?.id;

  it('gives Subscribe its own budget, and the mailed confirmation link the service-wide one', () => {
    expect(budget('/PublicStatus/Subscribe')).toBe('public-status:/publicstatus/subscribe');
    expect(budget('/PublicStatus/Subscribe/confirm?token=x')).toBe('public-status');
    expect(budget('/PublicStatus/StatusPage?business=platform')).toBe('public-status');
    expect(budget('/PublicStatus/manage/products')).toBeUndefined();
  });
});
