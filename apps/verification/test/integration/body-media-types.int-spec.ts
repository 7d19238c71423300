import type { INestApplication } from '@nestjs/common';
import { auditRoutes } from '@platform/auth';
import { bodyTypeProblems, createTestDatabase, listen, rawRequest, serviceEnv } from '@platform/testing';
import { VerificationAppModule } from '../../src/app.module';
import { createVerificationApp } from '../../src/bootstrap';

/**
 * Every POST, PUT and PATCH route of verification answers a body that is not JSON with 415 in the
 * envelope, unless it declares the type: the OAuth token endpoint (forms; another type is its own RFC
 * 6749 `invalid_request`), the uploads (any file), the
 * public report's check and open (issue 23).
 */
describe('verification refuses bodies that are not JSON (real PostgreSQL)', () => {
  let app: INestApplication;
  let db: Awaited<ReturnType<typeof createTestDatabase>>;
  let base: string;
  beforeAll(async () => {
    db = await createTestDatabase('verification_body_types');
    app = await createVerificationApp(serviceEnv(db.url, { WEBHOOKS_WORKER_INTERVAL_MS: '0' }), false);
    base = await listen(app);
  });
  afterAll(async () => {
    await app?.close();
    await db?.drop();
  });

  it('answers 415 UNSUPPORTED_MEDIA_TYPE on every write route but those declaring the type', async () => {
    const { checked, problems } = await bodyTypeProblems(
      base,
      auditRoutes(VerificationAppModule.register({})),
    );
    expect(checked).toBeGreaterThan(20);
    expect(problems).toEqual([]);
  });

  it('keeps the token endpoint an OAuth one: a body that is not a form is RFC 6749 invalid_request', async () => {
    const r = await rawRequest(`${base}/api/v1/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'text/plain' },
      body: 'grant_type=client_credentials',
    });
    expect(r.status).toBe(400);
    expect(r.json?.error).toBe('invalid_request');
    expect(r.headers['cache-control']).toBe('no-store');
  });
});
