import type { INestApplication } from '@nestjs/common';
import { TenancyAdminService } from '@platform/tenancy';
import {
  createTestDatabase,
  listen,
  oauthTokenErrors,
  readRouteManifest,
  runFuzz,
  serviceEnv,
  type FuzzReport,
} from '@platform/testing';
import { createVerificationApp } from '../../src/bootstrap';

/**
 * The gateway's fuzz harness on verification alone, with a key holding every permission area, so the
 * cases routes (create, get, list, history, cancel) see hostile input past authentication: a 4xx,
 * never a 500.
 */
describe('verification under the fuzz harness (real PostgreSQL)', () => {
  let app: INestApplication;
  let db: Awaited<ReturnType<typeof createTestDatabase>>;
  let report: FuzzReport;

  beforeAll(async () => {
    db = await createTestDatabase('verification_fuzz');
    app = await createVerificationApp(serviceEnv(db.url), false);
    const base = await listen(app);
    const admin = app.get(TenancyAdminService);
    await admin.createOwner('org-fuzz', 'Fuzz');
    const key = (await admin.issueKey('org-fuzz', 'fuzz')).token;
    report = await runFuzz(
      [
        {
          app: 'verification',
          routes: readRouteManifest('verification'),
          urlFor: (route) => `${base}${route.path}`,
          credentials: (route) =>
            route.access === 'authenticated'
              ? { 'X-API-Key': key, 'Service-Organization-Id': 'org-fuzz' }
              : undefined,
          readyUrl: `${base}/health/live`,
          // The token endpoint answers RFC 6749 5.2 errors; what fails before it (URL guard) is the envelope.
          errorProblems: oauthTokenErrors('/api/v1/oauth/token'),
        },
      ],
      [base],
      { seed: 20261123, randomPerRoute: 30, concurrency: 8, timeoutMs: 15000 },
    );
  }, 300_000);

  afterAll(async () => {
    await app?.close();
    await db?.drop();
  });

  it('answers every generated request without a 5xx or a broken envelope', () => {
    expect(report.requests).toBeGreaterThan(100);
    expect(report.failures).toEqual([]);
  });
});
