import { accessProblems, auditRoutes } from '@platform/auth';
import { describeRoutes, routeManifestDrift, secretRouteProblems } from '@platform/testing';
import { VerificationAppModule } from './app.module';

describe('verification routes', () => {
  const routes = auditRoutes(VerificationAppModule.register({}));

  it('are found', () => {
    expect(routes.map((r) => `${r.method} ${r.path}`)).toEqual(
      expect.arrayContaining([
        'GET /api/v1/verification-cases',
        'POST /api/v1/verification-cases',
        'GET /api/v1/verification-cases/:id',
        'GET /api/v1/verification-cases/:id/history',
        'POST /api/v1/verification-cases/:id/cancel',
        'GET /health/live',
        'GET /health/ready',
      ]),
    );
  });

  it('each declare @Public(), or Authenticated() with their scopes or a named exemption', () => {
    expect(accessProblems(routes)).toEqual([]);
  });

  it('match the committed route manifest docs/routes/verification.json (the fuzz harness reads it)', () => {
    const { committed, actual } = routeManifestDrift(
      'verification',
      describeRoutes(VerificationAppModule.register({})),
    );
    expect(committed).toEqual(actual);
  });

  it('answer with Cache-Control: no-store wherever the answer shows a secret (ShowsSecret)', () => {
    const { secretRoutes, problems } = secretRouteProblems(auditRoutes(VerificationAppModule.register({})));
    expect(secretRoutes.sort()).toEqual(
      [
        'POST /api/v1/oauth/token',
        'POST /api/v1/webhook-endpoints',
        'POST /api/v1/webhook-endpoints/:id/rotate-secret',
      ].sort(),
    );
    expect(problems).toEqual([]);
  });
});
