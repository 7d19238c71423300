import { request as httpRequest } from 'node:http';
import type { INestApplication } from '@nestjs/common';
import { listen } from '@platform/testing';
import { createGatewayApp } from '../../src/bootstrap';
import { TestUpstream, call, upstreamEnv } from './test-upstream';

/** Per-route body limits and timeouts from the route table (libs/registry), against a real upstream. */
describe('gateway limits per route (real HTTP)', () => {
  let gateway: INestApplication;
  let base: string;
  const upstream = new TestUpstream();

  beforeAll(async () => {
    await upstream.start();
    // The default timeout is short here; public status declares its own 10 s in the registry.
    gateway = await createGatewayApp(
      {
        NODE_ENV: 'test',
        GATEWAY_RATE_LIMIT: 'off',
        ...upstreamEnv(upstream.url),
        GATEWAY_UPSTREAM_TIMEOUT_MS: '300',
      },
      false,
    );
    base = await listen(gateway);
  });

  afterAll(async () => {
    await gateway?.close();
    await upstream.stop();
  });

  it('refuses a Content-Length over the route limit with a localised 413, forwarding nothing', async () => {
    const before = upstream.seen.length;
    const res = await call(`${base}/PublicStatus/anything`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'Language-Code': 'tr' },
      body: Buffer.alloc(16 * 1024 + 1, 'a'),
    });
    expect(res.status).toBe(413);
    expect(res.json).toMatchObject({
      success: false,
      code: 413,
      error: 'İstek gövdesi çok büyük.',
      value: { reason: 'PAYLOAD_TOO_LARGE', maxBodyBytes: 16 * 1024 },
    });
    expect(res.json.value?.requestId).toBe(res.headers['x-request-id']);
    expect(upstream.seen.length).toBe(before);
  });

  it('forwards a body of exactly the limit', async () => {
    const res = await call(`${base}/Calendar/upload`, {
      method: 'POST',
      headers: { 'content-type': 'application/octet-stream' },
      body: Buffer.alloc(1024 * 1024, 1),
    });
    expect(res.status).toBe(200);
    expect(upstream.last()).toMatchObject({ url: '/Calendar/upload', bytes: 1024 * 1024, completed: true });
  });

  it("adds the app's answer headers to its own refusals: lending's Api-Version on a 413", async () => {
    const res = await call(`${base}/Loans/RunAccruals`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: Buffer.alloc(1024 * 1024 + 1, 'a'),
    });
    expect(res.status).toBe(413);
    expect(res.headers['api-version']).toBe('1');
    // Only the app that declares it: public status's refusal has none.
    const other = await call(`${base}/PublicStatus/anything`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: Buffer.alloc(16 * 1024 + 1, 'a'),
    });
    expect(other.status).toBe(413);
    expect(other.headers['api-version']).toBeUndefined();
  });

  it('counts a chunked body while it streams and cuts it off at the limit', async () => {
    const chunks = Array.from({ length: 40 }, () => Buffer.alloc(64 * 1024, 2)); // 2.5 MiB
    const before = upstream.seen.length;
    const res = await call(`${base}/Calendar/upload?chunked=1`, {
      method: 'POST',
      headers: { 'content-type': 'application/octet-stream', 'Language-Code': 'es' },
      chunks,
    });
    expect(res.status).toBe(413);
    expect(res.json).toMatchObject({
      code: 413,
      value: { reason: 'PAYLOAD_TOO_LARGE', maxBodyBytes: 1024 * 1024 },
    });
    expect(res.json.error).toBe('El cuerpo de la solicitud es demasiado grande.');
    // The upstream got at most the limit, and its request was aborted rather than completed.
    const seen = upstream.seen.slice(before).find((s) => s.url === '/Calendar/upload?chunked=1');
    await new Promise((r) => setTimeout(r, 50));
    expect(seen?.bytes).toBeLessThanOrEqual(1024 * 1024);
    expect(seen?.completed).toBe(false);
    // The gateway still answers afterwards.
    expect((await call(`${base}/health/live`)).status).toBe(200);
  });

  it('refuses an oversized body announced with Expect: 100-continue before it is sent', async () => {
    const before = upstream.seen.length;
    const res = await new Promise<{ status: number; continued: boolean }>((resolve, reject) => {
      let continued = false;
      const u = new URL(`${base}/Calendar/upload`);
      const req = httpRequest({
        host: u.hostname,
        port: u.port,
        path: u.pathname,
        method: 'POST',
        agent: false,
        headers: { expect: '100-continue', 'content-length': String(50 * 1024 * 1024) },
      });
      req.on('continue', () => {
        continued = true;
        req.end(Buffer.alloc(10));
      });
      req.on('response', (r) => {
        r.resume();
        r.on('end', () => resolve({ status: r.statusCode ?? 0, continued }));
        req.destroy();
      });
      req.on('error', reject);
      req.flushHeaders();
    });
    expect(res).toEqual({ status: 413, continued: false });
    expect(upstream.seen.length).toBe(before);
  });

  it('times out per route: the default route answers 504, the public status route waits its own 10 s', async () => {
    const started = Date.now();
    const slow = await call(`${base}/Calendar/slow?delay=1000`, { headers: { 'Language-Code': 'kk' } });
    expect(slow.status).toBe(504);
    expect(slow.json).toMatchObject({ code: 504, value: { reason: 'UPSTREAM_TIMEOUT' } });
    expect(slow.json.error).toBe('calendar қызметі уақытында жауап бермеді.');
    expect(Date.now() - started).toBeLessThan(900);
    const patient = await call(`${base}/PublicStatus/slow?delay=1000`);
    expect(patient.status).toBe(200);
  });
});
