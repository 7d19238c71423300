import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { INestApplication } from '@nestjs/common';
import { createTestDatabase, listen, request, serviceEnv } from '@platform/testing';
import { createCalendarApp } from '../../src/bootstrap';
import { calendarOpenApi } from '../../src/openapi';

const COMMITTED = resolve(__dirname, '../../../../docs/openapi/calendar.json');

describe('calendar OpenAPI document', () => {
  let app: INestApplication;
  let base: string;
  let db: Awaited<ReturnType<typeof createTestDatabase>>;

  beforeAll(async () => {
    db = await createTestDatabase('calendar_openapi');
    app = await createCalendarApp(serviceEnv(db.url), false);
    base = await listen(app);
  });

  afterAll(async () => {
    await app?.close();
    await db?.drop();
  });

  it('matches the committed docs/openapi/calendar.json (regenerate: npm run openapi)', () => {
    const generated = `${JSON.stringify(calendarOpenApi(app), null, 2)}\n`;
    if (process.env.UPDATE_OPENAPI === '1') writeFileSync(COMMITTED, generated);
    expect(existsSync(COMMITTED)).toBe(true);
    expect(JSON.parse(readFileSync(COMMITTED, 'utf8'))).toEqual(JSON.parse(generated));
  });

  it('documents every calendar endpoint with its request, envelope responses and examples', () => {
    const doc = calendarOpenApi(app) as unknown as {
      paths: Record<
        string,
        Record<
          string,
          {
            responses: Record<string, unknown>;
            requestBody?: { content: Record<string, { examples?: unknown }> };
          }
        >
      >;
      components: { schemas: Record<string, { properties?: Record<string, unknown> }> };
    };
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
    expect(Object.keys(upsert.responses)).toEqual(
      expect.arrayContaining(['200', '201', '400', '409', '429']),
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
  });

  it('is served by the app', async () => {
    const res = await request<{ openapi: string; info: { title: string } }>(`${base}/docs/openapi.json`);
    expect(res.status).toBe(200);
    expect(res.body.info.title).toBe('Calendar API');
  });
});
