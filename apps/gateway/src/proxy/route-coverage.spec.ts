import { GATEWAY_DEFAULT_LIMITS, SERVICES, type ServiceDefinition } from '@platform/registry';
import { readRouteManifest } from '@platform/testing';
import { ROUTE_TABLE, matchRoute, type RouteRule } from './route-table';

const under = (path: string, prefix: string) => {
  const p = path.toLowerCase();
  const q = prefix.toLowerCase();
  return p === q || p.startsWith(`${q}/`);
};

/** A request path for a route pattern: `:id`-style parameters get a sample value. */
const concrete = (pattern: string) => pattern.replace(/:[^/]+/g, 'p-1');

/**
 * Every route of every app, as committed in docs/routes/<app>.json, checked against a route table: the
 * gateway's own routes stay with the gateway, an app's health is reached at /health/<app>/..., its
 * internal routes are not exposed, and every other route goes to the app that declares it, unchanged.
 */
function misrouted(table: readonly RouteRule[]): string[] {
  const problems: string[] = [];
  const services: readonly ServiceDefinition[] = SERVICES;
  for (const s of services) {
    for (const route of readRouteManifest(s.name)) {
      const path = concrete(route.path);
      const label = `${s.name} ${route.method} ${route.path}`;
      let url = path;
      let expected: { upstream: string; upstreamPath: string } | undefined = {
        upstream: s.name,
        upstreamPath: path,
      };
      if (s.gateway === null || s.internalPaths.some((p) => under(path, p))) {
        expected = undefined;
      } else if (under(path, s.health)) {
        url = `/health/${s.name}${path.slice(s.health.length)}`;
      }
      const m = matchRoute(url, table);
      const actual = m && { upstream: m.rule.upstream, upstreamPath: m.upstreamPath };
      if (JSON.stringify(actual) !== JSON.stringify(expected)) {
        problems.push(`${label}: ${url} -> ${JSON.stringify(actual ?? null)}`);
      }
    }
  }
  return problems;
}

describe('gateway route table against every app', () => {
  it('sends every committed route of every app to that app', () => {
    expect(misrouted(ROUTE_TABLE)).toEqual([]);
  });

  it('checks every app and every route of it', () => {
    const routes = SERVICES.map((s) => readRouteManifest(s.name).length);
    expect(routes.every((n) => n > 0)).toBe(true);
  });

  it('notices a service whose prefixes are missing, and an internal route that becomes public', () => {
    // Without lending's prefixes, every lending route but its health (reached by its own rule) is lost.
    // Its internal routes (/metrics) are never routed, with or without its prefixes.
    const lending = readRouteManifest('lending').filter(
      (r) => !under(r.path, '/health') && !under(r.path, '/metrics'),
    );
    expect(lending.map((r) => r.path)).toContain('/Applications/GetApplications');
    expect(misrouted(ROUTE_TABLE.filter((r) => r.upstream !== 'lending' || r.rewriteTo))).toEqual(
      lending.map((r) => `lending ${r.method} ${r.path}: ${concrete(r.path)} -> null`),
    );
    const metrics: RouteRule = {
      prefix: '/metrics',
      upstream: 'calendar',
      limits: GATEWAY_DEFAULT_LIMITS,
      cors: null,
      rateLimit: null,
    };
    // Every app that serves /metrics on its own port would leak it (the gateway serves its own on another).
    const scraped = SERVICES.filter((s) => readRouteManifest(s.name).some((r) => r.path === '/metrics'));
    expect(scraped.map((s) => s.name)).toEqual([
      'calendar',
      'public-status',
      'lending',
      'verification',
      'outbox-relay',
    ]);
    expect(misrouted([metrics, ...ROUTE_TABLE])).toEqual(
      scraped.map(
        (s) => `${s.name} GET /metrics: /metrics -> {"upstream":"calendar","upstreamPath":"/metrics"}`,
      ),
    );
  });

  // The base paths the API specifications give each service (lending's table of areas, the calendar and
  // public status operations, verification's /api/v1): operations the specs do not show yet must reach
  // the service the day it adds them, without a gateway change.
  it.each([
    ...[
      '/applications',
      '/customers',
      '/loans',
      '/scoring',
      '/compliance',
      '/aml',
      '/collection',
      '/funding',
      '/reporting',
      '/tax-reporting',
      '/public/customer',
    ].map((base) => [base, 'lending']),
    ['/Calendar', 'calendar'],
    ['/PublicStatus', 'public-status'],
    ['/api/v1', 'verification'],
  ])('every operation under the spec base path %s goes to %s', (base, upstream) => {
    for (const path of [`${base}/SomeOperation`, `${base}/p-1/nested?Offset=0&Count=1`]) {
      expect(matchRoute(path)).toEqual({ rule: expect.objectContaining({ upstream }), upstreamPath: path });
    }
  });
});
