import { auditRoutes } from '@platform/auth';
import { RelayAppModule } from './app.module';

describe('outbox-relay routes', () => {
  const routes = auditRoutes(RelayAppModule.register({}));

  it('include lag, metrics and health', () => {
    expect(routes.map((r) => `${r.method} ${r.path}`)).toEqual(
      expect.arrayContaining(['GET /relay/lag', 'GET /metrics', 'GET /health/live', 'GET /health/ready']),
    );
  });

  it('each declare @Public() or @Authenticated()', () => {
    expect(routes.filter((r) => r.access === 'none')).toEqual([]);
  });
});
