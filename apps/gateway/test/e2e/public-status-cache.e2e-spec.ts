import { spawn, type ChildProcess } from 'node:child_process';
import { resolve } from 'node:path';
import type { INestApplication } from '@nestjs/common';
import { freePort, runAdmin } from '@platform/dev-infra';
import { createTestDatabase, listen } from '@platform/testing';
import { createGatewayApp } from '../../src/bootstrap';
import { call } from '../integration/test-upstream';

const DIST = resolve(__dirname, '../../../../dist');

/**
 * The micro-cache's real user: the built public-status app on a fresh database behind the gateway.
 * `GET /PublicStatus/Products` says `Cache-Control: public, max-age=5`, so reloads within 5 s are
 * answered by the gateway, and a browser that holds the ETag gets 304.
 */
describe('public status through the gateway micro-cache', () => {
  let db: Awaited<ReturnType<typeof createTestDatabase>>;
  let app: ChildProcess;
  let gateway: INestApplication;
  let gw: string;
  let direct: string;

  beforeAll(async () => {
    db = await createTestDatabase('e2e_gateway_cache');
    const port = await freePort();
    direct = `http://127.0.0.1:${port}`;
    const env = {
      DATABASE_URL: db.url,
      KAFKA_BROKERS: process.env.KAFKA_BROKERS as string,
      NODE_ENV: 'test',
    };
    app = spawn(
      process.execPath,
      ['-r', resolve(DIST, 'scripts/register-paths.js'), resolve(DIST, 'apps/public-status/src/main.js')],
      {
        env: { ...process.env, ...env, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'error' },
        stdio: 'ignore',
      },
    );
    for (let i = 0; ; i++) {
      const ready = await fetch(`${direct}/health/ready`).catch(() => undefined);
      if (ready?.status === 200) break;
      if (i > 200 || app.exitCode !== null) throw new Error('public-status did not start');
      await new Promise((r) => setTimeout(r, 150));
    }
    runAdmin(DIST, 'public-status', ['seed-demo'], env);
    gateway = await createGatewayApp(
      { NODE_ENV: 'test', GATEWAY_RATE_LIMIT: 'off', PUBLIC_STATUS_URL: direct },
      false,
    );
    gw = await listen(gateway);
  }, 120000);

  afterAll(async () => {
    await gateway?.close();
    app?.kill('SIGTERM');
    await db?.drop();
  });

  it('answers a reload from the gateway, with Age, ETag and 304', async () => {
    const own = await call(`${direct}/PublicStatus/Products`);
    expect(own.headers['cache-control']).toBe('public, max-age=5');
    const first = await call(`${gw}/PublicStatus/Products`, { headers: { 'Accept-Language': 'kk' } });
    expect(first.status).toBe(200);
    expect(first.json).toMatchObject({ success: true, value: { total: 3 } });
    expect(first.headers).toMatchObject({ 'x-cache': 'MISS', 'cache-control': 'public, max-age=5' });
    const again = await call(`${gw}/PublicStatus/Products`, { headers: { 'Accept-Language': 'kk-KZ' } });
    expect(again.headers).toMatchObject({ 'x-cache': 'HIT', etag: first.headers.etag });
    expect(Number(again.headers.age)).toBeLessThanOrEqual(5);
    expect(again.text).toBe(first.text);
    const unchanged = await call(`${gw}/PublicStatus/Products`, {
      headers: { 'Accept-Language': 'kk', 'If-None-Match': String(first.headers.etag) },
    });
    expect(unchanged.status).toBe(304);
    // Anyone may read it from a browser, on any site.
    expect(again.headers['access-control-allow-origin']).toBe('*');
  });
});
