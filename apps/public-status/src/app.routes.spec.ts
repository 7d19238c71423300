import { auditRoutes } from '@platform/auth';
import { describeRoutes, routeManifestDrift } from '@platform/testing';
import { PublicStatusAppModule } from './app.module';

describe('public-status routes', () => {
  const routes = auditRoutes(PublicStatusAppModule.register({}));

  it('are found', () => {
    expect(routes.map((r) => `${r.method} ${r.path}`)).toEqual(
      expect.arrayContaining(['GET /PublicStatus/Products', 'GET /health/live', 'GET /health/ready']),
    );
  });

  it('are all anonymous, as the spec requires', () => {
    expect(routes.every((r) => r.access === 'public')).toBe(true);
  });

  it('match the committed route manifest docs/routes/public-status.json (the fuzz harness reads it)', () => {
    const { committed, actual } = routeManifestDrift(
      'public-status',
      describeRoutes(PublicStatusAppModule.register({})),
    );
    expect(committed).toEqual(actual);
  });
});
