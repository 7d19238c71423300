import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { INestApplication } from '@nestjs/common';
import { listen, request } from '@platform/testing';
import { createGatewayApp } from '../../src/bootstrap';

interface Seen {
  method: string;
  url: string;
  /** Which request of its connection this was (1: the first). */
  nth: number;
}

/**
 * An upstream that closes a kept-alive connection just as the gateway sends the next request on it, as a
 * service does when it closes idle connections on shutdown or at its keep-alive timeout: every
 * connection answers its first request (kept alive) and is reset without an answer on its second.
 */
describe('gateway: a kept-alive upstream connection reset before any answer', () => {
  let gateway: INestApplication;
  let base: string;
  let upstream: Server;
  const seen: Seen[] = [];

  beforeAll(async () => {
    const requestsOf = new WeakMap<Socket, number>();
    upstream = createServer((req, res) => {
      const nth = (requestsOf.get(req.socket) ?? 0) + 1;
      requestsOf.set(req.socket, nth);
      seen.push({ method: req.method ?? '', url: req.url ?? '', nth });
      req.resume();
      req.on('end', () => {
        if (nth > 1) return void req.socket.destroy();
        res.writeHead(200, { 'content-type': 'application/json', connection: 'keep-alive' });
        res.end(JSON.stringify({ ok: true, method: req.method }));
      });
    });
    await new Promise<void>((r) => upstream.listen(0, '127.0.0.1', r));
    const upstreamUrl = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
    gateway = await createGatewayApp(
      {
        NODE_ENV: 'test',
        GATEWAY_RATE_LIMIT: 'off',
        // Every GET goes upstream (no micro-cache), through the plain proxy path.
        GATEWAY_CACHE_MAX_BYTES: '0',
        CALENDAR_URL: upstreamUrl,
      },
      false,
    );
    base = await listen(gateway);
  });

  afterAll(async () => {
    await gateway?.close();
    upstream?.closeAllConnections();
    await new Promise((r) => upstream?.close(r));
  });

  beforeEach(async () => {
    // Each test starts with one kept-alive connection in the gateway's pool, which the next request reuses.
    const warm = await request(`${base}/Calendar/warm`);
    expect(warm.status).toBe(200);
    seen.length = 0;
  });

  it('a GET is sent once more on a new connection, and the caller gets the answer', async () => {
    const res = await request<{ ok: boolean; method: string }>(`${base}/Calendar/events?week=1`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ok: true, method: 'GET' });
    expect(seen).toEqual([
      { method: 'GET', url: '/Calendar/events?week=1', nth: 2 },
      { method: 'GET', url: '/Calendar/events?week=1', nth: 1 },
    ]);
  });

  it('a HEAD too', async () => {
    const res = await fetch(`${base}/Calendar/events`, { method: 'HEAD' });
    expect(res.status).toBe(200);
    expect(seen.map((s) => [s.method, s.nth])).toEqual([
      ['HEAD', 2],
      ['HEAD', 1],
    ]);
  });

  it('a POST is not repeated (it may have been acted on): 502, upstream asked once', async () => {
    const res = await request<{ value: { reason: string } }>(`${base}/Calendar/upsert`, { body: { a: 1 } });
    expect(res.status).toBe(502);
    expect(res.body.value.reason).toBe('UPSTREAM_UNAVAILABLE');
    expect(seen).toEqual([{ method: 'POST', url: '/Calendar/upsert', nth: 2 }]);
  });

  it('a GET with a body is not repeated either: its body has been read from the caller', async () => {
    const status = await new Promise<number | undefined>((resolve, reject) => {
      const req = httpRequest(
        `${base}/Calendar/search`,
        { method: 'GET', headers: { 'content-length': '2' } },
        (res) => {
          res.resume();
          res.on('end', () => resolve(res.statusCode));
        },
      );
      req.on('error', reject);
      req.end('{}');
    });
    expect(status).toBe(502);
    expect(seen).toEqual([{ method: 'GET', url: '/Calendar/search', nth: 2 }]);
  });

  it('only once: an upstream that resets the new connection too answers 502', async () => {
    // Two warm connections in the pool, so that the repeated request also goes out on a reused one.
    await Promise.all([request(`${base}/Calendar/warm`), request(`${base}/Calendar/warm`)]);
    seen.length = 0;
    const res = await request<{ value: { reason: string } }>(`${base}/Calendar/events`);
    expect(res.status).toBe(502);
    expect(res.body.value.reason).toBe('UPSTREAM_UNAVAILABLE');
    expect(seen.map((s) => s.nth)).toEqual([2, 2]);
  });
});
