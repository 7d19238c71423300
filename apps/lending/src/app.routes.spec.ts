import { auditRoutes } from '@platform/auth';
import { LendingAppModule } from './app.module';

describe('lending routes', () => {
  const routes = auditRoutes(LendingAppModule.register({}));

  it('are found', () => {
    expect(routes.map((r) => `${r.method} ${r.path}`)).toEqual(
      expect.arrayContaining(['GET /Applications/GetApplications', 'GET /health/live', 'GET /health/ready']),
    );
  });

  it('each declare @Public() or @Authenticated()', () => {
    expect(routes.filter((r) => r.access === 'none')).toEqual([]);
  });
});
