import { createHash } from 'node:crypto';
import { createServer, request as httpRequest, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { INestApplication } from '@nestjs/common';
import { listen, request } from '@platform/testing';
import { createGatewayApp } from '../../src/bootstrap';

interface Seen {
  method?: string;
  url?: string;
  headers?: IncomingMessage['headers'];
  bodySha?: string;
  bodyBytes?: number;
}

async function start(server: Server): Promise<string> {
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

describe('gateway reverse proxy (real HTTP)', () => {
  let gateway: INestApplication;
  let base: string;
  let upstream: Server;
  const seen: Seen = {};

  beforeAll(async () => {
    upstream = createServer((req, res) => {
      if (req.url?.startsWith('/Calendar/slow')) {
        setTimeout(() => res.end('late'), 2000).unref();
        return;
      }
      const hash = createHash('sha256');
      let bytes = 0;
      req.on('data', (c: Buffer) => {
        hash.update(c);
        bytes += c.length;
      });
      req.on('end', () => {
        Object.assign(seen, {
          method: req.method,
          url: req.url,
          headers: req.headers,
          bodySha: hash.digest('hex'),
          bodyBytes: bytes,
        });
        if (req.url?.startsWith('/Calendar/download')) {
          res.writeHead(200, { 'content-type': 'application/octet-stream' });
          // 4 MiB in 64 KiB chunks: streamed, not buffered.
          const chunk = Buffer.alloc(64 * 1024, 7);
          let left = 64;
          const pump = () => {
            while (left > 0) {
              left--;
              if (!res.write(chunk)) return res.once('drain', pump);
            }
            res.end();
          };
          pump();
          return;
        }
        res.writeHead(207, {
          'content-type': 'application/json',
          'x-upstream': 'calendar',
          connection: 'keep-alive',
        });
        res.end(JSON.stringify({ ok: true }));
      });
    });
    upstream.on('upgrade', (req, socket) => {
      seen.url = req.url;
      seen.headers = req.headers;
      socket.write('HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\r\n');
      socket.on('data', (d: Buffer) => socket.write(Buffer.concat([Buffer.from('echo:'), d])));
      // Upgraded sockets are no longer tracked by the server: close ours when the gateway closes its end.
      socket.on('end', () => socket.end());
    });
    const upstreamUrl = await start(upstream);
    gateway = await createGatewayApp(
      {
        NODE_ENV: 'test',
        GATEWAY_RATE_LIMIT: 'off',
        CALENDAR_URL: upstreamUrl,
        VERIFICATION_URL: upstreamUrl,
        // Nothing listens on port 9 (discard): a refused connection.
        LENDING_URL: 'http://127.0.0.1:9',
        GATEWAY_UPSTREAM_TIMEOUT_MS: '500',
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

  it('forwards method, path, query, headers and status; adds request id and forwarding headers', async () => {
    const res = await request(`${base}/calendar/upsert?x=1`, {
      headers: { API_KEY: 'k', 'X-Request-Id': 'req-abc-1', 'Language-Code': 'kk' },
      body: { a: 1 },
    });
    expect(res.status).toBe(207);
    expect(res.body).toEqual({ ok: true });
    expect(res.headers.get('x-upstream')).toBe('calendar');
    expect(res.headers.get('x-request-id')).toBe('req-abc-1');
    expect(seen).toMatchObject({ method: 'POST', url: '/calendar/upsert?x=1' });
    expect(seen.headers).toMatchObject({
      api_key: 'k',
      'x-request-id': 'req-abc-1',
      'language-code': 'kk',
      'x-forwarded-proto': 'http',
    });
    expect(seen.headers?.['x-forwarded-for']).toContain('127.0.0.1');

    const generated = await request(`${base}/Calendar/upsert`, { body: {} });
    expect(generated.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    expect(seen.headers?.['x-request-id']).toBe(generated.headers.get('x-request-id'));
  });

  it('streams large bodies both ways without changing a byte', async () => {
    // 8 MiB: over the default body limit, within the one of verification's document uploads.
    const body = Buffer.alloc(8 * 1024 * 1024);
    for (let i = 0; i < body.length; i += 4096) body[i] = i % 251;
    const up = await fetch(`${base}/api/v1/verification-cases/C-1/documents`, {
      method: 'POST',
      body,
      headers: { 'content-type': 'application/octet-stream' },
    });
    expect(up.status).toBe(207);
    expect(seen.bodyBytes).toBe(body.length);
    expect(seen.bodySha).toBe(createHash('sha256').update(body).digest('hex'));

    // A GET may meet the kept-alive socket of the upload just as the gateway closes it as idle (a loaded
    // machine can stall this test past the keep-alive timeout): the one retry RFC 9112 9.3.1 allows.
    const download = async () => Buffer.from(await (await fetch(`${base}/Calendar/download`)).arrayBuffer());
    const bytes = await download().catch((err: Error) => {
      if (err.message !== 'terminated' && !String(err.cause).includes('other side closed')) throw err;
      return download();
    });
    expect(bytes.length).toBe(4 * 1024 * 1024);
    expect(bytes.every((b) => b === 7)).toBe(true);
  });

  it('tunnels a WebSocket upgrade to the owning service', async () => {
    const reply = await new Promise<string>((resolve, reject) => {
      const url = new URL(`${base}/Calendar/live?cursor=5`);
      const req = httpRequest({
        host: url.hostname,
        port: url.port,
        path: `${url.pathname}${url.search}`,
        headers: {
          Connection: 'Upgrade',
          Upgrade: 'websocket',
          'Sec-WebSocket-Version': '13',
          'Sec-WebSocket-Key': 'dGhlIHNhbXBsZSBub25jZQ==',
        },
      });
      req.on('upgrade', (res, socket) => {
        expect(res.statusCode).toBe(101);
        socket.once('data', (d: Buffer) => {
          socket.destroy();
          resolve(d.toString());
        });
        socket.write('ping');
      });
      req.on('error', reject);
      req.end();
    });
    expect(reply).toBe('echo:ping');
    expect(seen.url).toBe('/Calendar/live?cursor=5');
    expect(seen.headers?.upgrade).toBe('websocket');
  });

  it('answers a refused upstream with a localised 502 envelope', async () => {
    const res = await request<{ success: boolean; code: number; error: string; value: { reason: string } }>(
      `${base}/loans/L-1`,
      { headers: { 'Language-Code': 'ru' } },
    );
    expect(res.status).toBe(502);
    expect(res.body).toMatchObject({ success: false, code: 502, value: { reason: 'UPSTREAM_UNAVAILABLE' } });
    expect(res.body.error).toBe('Сервис lending недоступен. Повторите попытку.');
  });

  it('answers a silent upstream with a 504 envelope after the timeout', async () => {
    const res = await request<{ value: { reason: string } }>(`${base}/Calendar/slow`);
    expect(res.status).toBe(504);
    expect(res.body.value.reason).toBe('UPSTREAM_TIMEOUT');
  });

  it('answers unrouted paths with its own 404 envelope and serves its own health', async () => {
    const missing = await request<{ success: boolean; value: { reason: string } }>(`${base}/nowhere`);
    expect(missing.status).toBe(404);
    expect(missing.body).toMatchObject({ success: false, value: { reason: 'ROUTE_NOT_FOUND' } });
    const live = await request<{ value: { service: string; status: string } }>(`${base}/health/live`);
    expect(live.body.value).toEqual({ service: 'gateway', status: 'up' });
  });
});
