import { ROUTE_TABLE, matchRoute } from './route-table';

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
