import { accessProblems, auditRoutes } from '@platform/auth';
import { describeRoutes, routeManifestDrift } from '@platform/testing';
import { LendingAppModule } from './app.module';

describe('lending routes', () => {
  const routes = auditRoutes(LendingAppModule.register({}));

  it('are found', () => {
    expect(routes.map((r) => `${r.method} ${r.path}`)).toEqual(
      expect.arrayContaining(['GET /Applications/GetApplications', 'GET /health/live', 'GET /health/ready']),
    );
  });

  it('each declare @Public(), or Authenticated() with their scopes or a named exemption', () => {
    expect(accessProblems(routes)).toEqual([]);
  });

  it('match the committed route manifest docs/routes/lending.json (the fuzz harness reads it)', () => {
    const { committed, actual } = routeManifestDrift(
      'lending',
      describeRoutes(LendingAppModule.register({})),
    );
    expect(committed).toEqual(actual);
  });
});
