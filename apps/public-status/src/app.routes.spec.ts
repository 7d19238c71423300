import { accessProblems, auditRoutes } from '@platform/auth';
import { describeRoutes, routeManifestDrift, secretRouteProblems } from '@platform/testing';
import { PublicStatusAppModule } from './app.module';

const ANONYMOUS = [
  'GET /PublicStatus/Products',
  'GET /PublicStatus/ProductStatus',
  'GET /PublicStatus/ProductUptime',
  'GET /PublicStatus/StatusPage',
  'GET /PublicStatus/StatusPageHistory',
  'GET /PublicStatus/UptimeHistory',
  'GET /PublicStatus/ChainHeads',
  'GET /PublicStatus/Rss',
  'POST /PublicStatus/Subscribe',
  'GET /PublicStatus/Subscribe/confirm',
  'GET /PublicStatus/Unsubscribe',
  'POST /PublicStatus/Unsubscribe',
  'GET /health/live',
  'GET /health/ready',
  // Prometheus's scrape: anonymous, and internal (the gateway does not route it; libs/registry).
  'GET /metrics',
];

describe('public-status routes', () => {
  const routes = auditRoutes(PublicStatusAppModule.register({}));

  it('are found', () => {
    expect(routes.map((r) => `${r.method} ${r.path}`)).toEqual(expect.arrayContaining(ANONYMOUS));
  });

  it('are anonymous exactly where the spec says (the public reads), and management keys elsewhere', () => {
    const publicRoutes = routes.filter((r) => r.access === 'public').map((r) => `${r.method} ${r.path}`);
    expect(publicRoutes.filter((r) => !r.includes('/health/')).sort()).toEqual(
      ANONYMOUS.filter((r) => !r.includes('/health/')).sort(),
    );
    const rest = routes.filter((r) => r.access !== 'public' && !r.path.startsWith('/health'));
    expect(rest.length).toBeGreaterThan(0);
    expect(
      rest.every((r) => r.path.startsWith('/PublicStatus/manage/') && r.schemes.join() === 'status-key'),
    ).toBe(true);
  });

  it('declare the scopes of every authenticated route', () => {
    expect(accessProblems(routes)).toEqual([]);
  });

  it('match the committed route manifest docs/routes/public-status.json (the fuzz harness reads it)', () => {
    const { committed, actual } = routeManifestDrift(
      'public-status',
      describeRoutes(PublicStatusAppModule.register({})),
    );
    expect(committed).toEqual(actual);
  });

  it('answer with Cache-Control: no-store wherever the answer shows a secret (ShowsSecret)', () => {
    const { secretRoutes, problems } = secretRouteProblems(auditRoutes(PublicStatusAppModule.register({})));
    expect(secretRoutes.sort()).toEqual(['POST /PublicStatus/Subscribe'].sort());
    expect(problems).toEqual([]);
  });
});
