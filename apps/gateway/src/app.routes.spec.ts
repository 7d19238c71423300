import { accessProblems, auditRoutes } from '@platform/auth';
import { describeRoutes, routeManifestDrift } from '@platform/testing';
import { GatewayAppModule } from './app.module';

describe('gateway routes', () => {
  const routes = auditRoutes(GatewayAppModule.register({}));

  it('are its own health probes and the API reference only', () => {
    expect(routes.map((r) => `${r.method} ${r.path}`).sort()).toEqual([
      'GET /docs',
      'GET /docs/:api',
      'GET /docs/:api/:file',
      'GET /docs/assets/:file',
      'GET /health/live',
      'GET /health/ready',
    ]);
  });

  it('each declare @Public(), or Authenticated() with their scopes or a named exemption', () => {
    expect(accessProblems(routes)).toEqual([]);
  });

  it('match the committed route manifest docs/routes/gateway.json (the fuzz harness reads it)', () => {
    const { committed, actual } = routeManifestDrift(
      'gateway',
      describeRoutes(GatewayAppModule.register({})),
    );
    expect(committed).toEqual(actual);
  });
});
