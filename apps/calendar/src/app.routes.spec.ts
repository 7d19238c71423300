import { accessProblems, auditRoutes } from '@platform/auth';
import { describeRoutes, routeManifestDrift, secretRouteProblems } from '@platform/testing';
import { CalendarAppModule } from './app.module';

describe('calendar routes', () => {
  const routes = auditRoutes(CalendarAppModule.register({}));

  it('are found', () => {
    expect(routes.map((r) => `${r.method} ${r.path}`)).toEqual(
      expect.arrayContaining([
        'POST /Calendar/upsert',
        'GET /Calendar/journal',
        'GET /health/live',
        'GET /health/ready',
      ]),
    );
  });

  it('each declare @Public(), or Authenticated() with their scopes or a named exemption', () => {
    expect(accessProblems(routes)).toEqual([]);
  });

  it('match the committed route manifest docs/routes/calendar.json (the fuzz harness reads it)', () => {
    const { committed, actual } = routeManifestDrift(
      'calendar',
      describeRoutes(CalendarAppModule.register({})),
    );
    expect(committed).toEqual(actual);
  });

  it('answer with Cache-Control: no-store wherever the answer shows a secret (ShowsSecret)', () => {
    const { secretRoutes, problems } = secretRouteProblems(auditRoutes(CalendarAppModule.register({})));
    expect(secretRoutes).toEqual(['POST /Calendar/app-passwords']);
    expect(problems).toEqual([]);
  });
});
