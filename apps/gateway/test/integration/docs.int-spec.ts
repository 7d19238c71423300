import type { INestApplication } from '@nestjs/common';
import { listen, rawRequest, request } from '@platform/testing';
import { createGatewayApp } from '../../src/bootstrap';

type Env = { success: boolean; code: number; error: string | null; value: { reason?: string } };

const start = async (env: Record<string, string>) => {
  const app = await createGatewayApp(
    { NODE_ENV: 'test', GATEWAY_RATE_LIMIT: 'off', PORT: '0', HOST: '127.0.0.1', ...env },
    false,
  );
  return { app, base: await listen(app) };
};

describe('the API reference at /docs (open in development)', () => {
  let app: INestApplication;
  let base: string;

  beforeAll(async () => {
    ({ app, base } = await start({}));
  });

  afterAll(async () => {
    await app?.close();
  });

  it('lists the four APIs, each in six languages, in the reader’s language', async () => {
    const res = await rawRequest(`${base}/docs`, { headers: { 'Accept-Language': 'es-ES,es;q=0.9' } });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toContain('text/html');
    expect(res.text).toContain('<html lang="es">');
    for (const api of ['calendar', 'lending', 'verification', 'public-status'])
      for (const lang of ['en', 'ru', 'kk', 'uz', 'tr', 'es'])
        expect(res.text).toContain(`/docs/${api}?lang=${lang}`);
  });

  it('serves a Swagger UI page per API with a language switcher and its document per language', async () => {
    const pageRes = await rawRequest(`${base}/docs/calendar?lang=kk`);
    expect(pageRes.status).toBe(200);
    expect(pageRes.text).toContain('data-spec="/docs/calendar/openapi.kk.json"');
    expect(pageRes.text).toContain('<option value="kk" selected>');
    expect(pageRes.text).not.toMatch(/<script>(?!<\/script>)/); // no inline script: CSP allows 'self' only
    for (const lang of ['en', 'ru', 'kk', 'uz', 'tr', 'es']) {
      const doc = await request<{ openapi: string; info: { title: string } }>(
        `${base}/docs/calendar/openapi.${lang}.json`,
      );
      expect(doc.status).toBe(200);
      expect(doc.body.openapi).toBe('3.1.0');
    }
    const asset = await rawRequest(`${base}/docs/assets/swagger-ui-bundle.js`);
    expect([asset.status, asset.headers['content-type']]).toEqual([200, 'text/javascript; charset=utf-8']);
  });

  it('answers an unknown API, language or file with a 404 in the envelope', async () => {
    for (const path of [
      '/docs/nope',
      '/docs/calendar/openapi.de.json',
      '/docs/calendar/secrets.json',
      '/docs/assets/..%2Fpackage.json',
    ]) {
      const res = await request<Env>(`${base}${path}`);
      expect([path, res.status, res.body.value?.reason]).toEqual([
        path,
        404,
        expect.stringMatching(/NOT_FOUND/),
      ]);
      expect(res.headers.get('content-type')).toContain('application/json');
    }
  });
});

describe('the API reference in production', () => {
  const login = 'docs-reader:correct horse battery';
  let app: INestApplication;
  let base: string;

  beforeAll(async () => {
    ({ app, base } = await start({ NODE_ENV: 'production', DOCS_LOGIN: login }));
  });

  afterAll(async () => {
    await app?.close();
  });

  const basic = (s: string) => `Basic ${Buffer.from(s).toString('base64')}`;

  it('refuses anonymous readers with a Basic challenge, localised, on every docs path', async () => {
    for (const path of [
      '/docs',
      '/docs/calendar',
      '/docs/calendar/openapi.en.json',
      '/docs/assets/swagger-ui.css',
    ]) {
      const res = await request<Env>(`${base}${path}`, { headers: { 'Language-Code': 'ru' } });
      expect([path, res.status, res.body.value.reason]).toEqual([path, 401, 'DOCS_LOGIN_REQUIRED']);
      expect(res.headers.get('www-authenticate')).toBe('Basic realm="API reference", charset="UTF-8"');
      expect(res.body.error).toBe('Для доступа к справочнику API здесь нужен вход.');
    }
  });

  it('refuses a wrong login and lets the configured one in', async () => {
    const wrong = await request<Env>(`${base}/docs`, {
      headers: { Authorization: basic('docs-reader:guess') },
    });
    expect(wrong.status).toBe(401);
    const right = await rawRequest(`${base}/docs/lending/openapi.tr.json`, {
      headers: { Authorization: basic(login) },
    });
    expect(right.status).toBe(200);
    expect(JSON.parse(right.text).openapi).toBe('3.1.0');
  });

  it('stays closed to everyone when production sets no login', async () => {
    const closed = await start({ NODE_ENV: 'production' });
    try {
      const res = await request<Env>(`${closed.base}/docs`, { headers: { Authorization: basic(login) } });
      expect(res.status).toBe(401);
    } finally {
      await closed.app.close();
    }
  });

  it('opens with DOCS_ACCESS=open, for a deployment that wants a public reference', async () => {
    const open = await start({ NODE_ENV: 'production', DOCS_ACCESS: 'open' });
    try {
      expect((await rawRequest(`${open.base}/docs`)).status).toBe(200);
    } finally {
      await open.app.close();
    }
  });
});
