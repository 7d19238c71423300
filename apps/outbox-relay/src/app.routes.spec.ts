import { accessProblems, auditRoutes } from '@platform/auth';
import { describeRoutes, routeManifestDrift } from '@platform/testing';
import { RelayAppModule } from './app.module';

describe('outbox-relay routes', () => {
  const routes = auditRoutes(RelayAppModule.register({}));

  it('include lag, metrics and health', () => {
    expect(routes.map((r) => `${r.method} ${r.path}`)).toEqual(
      expect.arrayContaining(['GET /relay/lag', 'GET /metrics', 'GET /health/live', 'GET /health/ready']),
    );
  });

  it('each declare @Public(), or Authenticated() with their scopes or a named exemption', () => {
    expect(accessProblems(routes)).toEqual([]);
  });

  it('match the committed route manifest docs/routes/outbox-relay.json (the fuzz harness reads it)', () => {
    const { committed, actual } = routeManifestDrift(
      'outbox-relay',
      describeRoutes(RelayAppModule.register({})),
    );
    expect(committed).toEqual(actual);
  });
});
