import { auditRoutes } from '@platform/auth';
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
});
