import { auditRoutes } from '@platform/auth';
import { GatewayAppModule } from './app.module';

describe('gateway routes', () => {
  const routes = auditRoutes(GatewayAppModule.register({}));

  it('are its own health probes only', () => {
    expect(routes.map((r) => `${r.method} ${r.path}`).sort()).toEqual([
      'GET /health/live',
      'GET /health/ready',
    ]);
  });

  it('each declare @Public() or @Authenticated()', () => {
    expect(routes.filter((r) => r.access === 'none')).toEqual([]);
  });
});
