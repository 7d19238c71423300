import type { INestApplication } from '@nestjs/common';
import { auditRoutes } from '@platform/auth';
import { bodyTypeProblems, createTestDatabase, listen, serviceEnv } from '@platform/testing';
import { VerificationAppModule } from '../../src/app.module';
import { createVerificationApp } from '../../src/bootstrap';

/**
 * Every POST, PUT and PATCH route of verification answers a body that is not JSON with 415 in the
 * envelope, unless it declares the type: the OAuth token endpoint (forms), the uploads (any file), the
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
});
