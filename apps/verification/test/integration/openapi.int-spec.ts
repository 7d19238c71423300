import type { INestApplication } from '@nestjs/common';
import { apiReferenceDrift, createTestDatabase, serviceEnv } from '@platform/testing';
import { VERIFICATION_REFERENCE } from '../../src/api-reference';
import { createVerificationApp } from '../../src/bootstrap';

describe('verification API reference (OpenAPI 3.1, six languages)', () => {
  let app: INestApplication;
  let db: Awaited<ReturnType<typeof createTestDatabase>>;

  beforeAll(async () => {
    db = await createTestDatabase('verification_openapi');
    app = await createVerificationApp(serviceEnv(db.url), false);
  });

  afterAll(async () => {
    await app?.close();
    await db?.drop();
  });

  it('matches the committed docs/openapi/verification.<lang>.json (regenerate: npm run openapi)', () => {
    expect(apiReferenceDrift(app, VERIFICATION_REFERENCE)).toEqual([]);
  });
});
