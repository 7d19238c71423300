import type { INestApplication } from '@nestjs/common';
import { apiReferenceDrift, createTestDatabase, serviceEnv } from '@platform/testing';
import { LENDING_REFERENCE } from '../../src/api-reference';
import { createLendingApp } from '../../src/bootstrap';

describe('lending API reference (OpenAPI 3.1, six languages)', () => {
  let app: INestApplication;
  let db: Awaited<ReturnType<typeof createTestDatabase>>;

  beforeAll(async () => {
    db = await createTestDatabase('lending_openapi');
    app = await createLendingApp(serviceEnv(db.url), false);
  });

  afterAll(async () => {
    await app?.close();
    await db?.drop();
  });

  it('matches the committed docs/openapi/lending.<lang>.json (regenerate: npm run openapi)', () => {
    expect(apiReferenceDrift(app, LENDING_REFERENCE)).toEqual([]);
  });
});
