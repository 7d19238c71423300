import { readFileSync } from 'node:fs';
import type { INestApplication } from '@nestjs/common';
import { apiReferenceDrift, createTestDatabase, referenceFile, serviceEnv } from '@platform/testing';
import { CALENDAR_REFERENCE } from '../../src/api-reference';
import { createCalendarApp } from '../../src/bootstrap';

type Op = {
  operationId: string;
  security: Record<string, string[]>[];
  responses: Record<string, { content?: Record<string, { examples?: Record<string, unknown> }> }>;
  requestBody?: { content: Record<string, { examples?: unknown }> };
};

describe('calendar API reference (OpenAPI 3.1, six languages)', () => {
  let app: INestApplication;
  let db: Awaited<ReturnType<typeof createTestDatabase>>;

  beforeAll(async () => {
    db = await createTestDatabase('calendar_openapi');
    app = await createCalendarApp(serviceEnv(db.url), false);
  });

  afterAll(async () => {
    await app?.close();
    await db?.drop();
  });

  it('matches the committed docs/openapi/calendar.<lang>.json (regenerate: npm run openapi)', () => {
    expect(apiReferenceDrift(app, CALENDAR_REFERENCE)).toEqual([]);
  });

  it('documents every operation with its security, envelope responses, reasons and examples', () => {
    const doc = JSON.parse(readFileSync(referenceFile('calendar', 'en'), 'utf8')) as {
      openapi: string;
      paths: Record<string, Record<string, Op>>;
      components: { schemas: Record<string, { properties?: Record<string, unknown> }> };
    };
    expect(doc.openapi).toBe('3.1.0');
    for (const [path, method] of [
      ['/Calendar/upsert', 'post'],
      ['/Calendar/remove', 'post'],
      ['/Calendar/listByEntity', 'get'],
      ['/Calendar/events', 'get'],
      ['/Calendar/grant', 'post'],
    ]) {
      expect(doc.paths[path]?.[method]).toBeDefined();
    }
    const upsert = doc.paths['/Calendar/upsert'].post;
    expect(upsert.security).toEqual([{ 'product-key': [] }]);
    expect(doc.paths['/Calendar/events'].get.security).toEqual([
      { 'product-key': [] },
      { 'platform-session': [] },
    ]);
    expect(Object.keys(upsert.responses)).toEqual(
      expect.arrayContaining(['200', '201', '400', '401', '403', '409', '429']),
    );
    expect(Object.keys(upsert.responses['409'].content?.['application/json'].examples ?? {})).toEqual([
      'CALENDAR_VERSION_CONFLICT',
    ]);
    expect(Object.keys(upsert.responses['401'].content?.['application/json'].examples ?? {})).toEqual(
      expect.arrayContaining(['API_KEY_MISSING', 'API_KEY_REVOKED', 'API_KEY_EXPIRED']),
    );
    expect(upsert.requestBody?.content['application/json'].examples).toBeDefined();
    expect(Object.keys(doc.components.schemas.UpsertEventRequest.properties ?? {})).toEqual(
      expect.arrayContaining([
        'entity_type',
        'entity_id',
        'version',
        'start',
        'end',
        'resources',
        'recurrence',
        'metadata',
      ]),
    );
    expect(Object.keys(doc.paths).filter((p) => p.startsWith('/health'))).toEqual([]);
  });
});
