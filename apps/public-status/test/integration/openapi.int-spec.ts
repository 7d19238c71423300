import type { INestApplication } from '@nestjs/common';
import { apiReferenceDrift, createTestDatabase, serviceEnv } from '@platform/testing';
import { PUBLIC_STATUS_REFERENCE } from '../../src/api-reference';
import { createPublicStatusApp } from '../../src/bootstrap';

describe('public-status API reference (OpenAPI 3.1, six languages)', () => {
  let app: INestApplication;
  let db: Awaited<ReturnType<typeof createTestDatabase>>;

  beforeAll(async () => {
    db = await createTestDatabase('public_status_openapi');
    app = await createPublicStatusApp(serviceEnv(db.url), false);
  });

  afterAll(async () => {
    await app?.close();
    await db?.drop();
  });

  it('matches the committed docs/openapi/public-status.<lang>.json (regenerate: npm run openapi)', () => {
    expect(apiReferenceDrift(app, PUBLIC_STATUS_REFERENCE)).toEqual([]);
  });
});
