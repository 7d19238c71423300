import { request as httpRequest } from 'node:http';
import type { INestApplication } from '@nestjs/common';
import { listen } from '@platform/testing';
import { createGatewayApp } from '../../src/bootstrap';
import { TestUpstream, call, upstreamEnv } from './test-upstream';

const API_CSP = "default-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

/** Security headers, CORS per route group and forwarding headers, through a real gateway and upstream. */
describe('gateway edge (real HTTP)', () => {
  let gateway: INestApplication;
  let production: INestApplication;
  let base: string;
  let prodBase: string;
  const upstream = new TestUpstream();

  beforeAll(async () => {
    await upstream.start();
    const env = {
      ...upstreamEnv(upstream.url),
      // 127.0.0.2 plays the trusted load balancer; the tests' own 127.0.0.1 is an untrusted client.
      GATEWAY_TRUSTED_PROXIES: '127.0.0.2/32, fd00::/8',
      WIDGET_ORIGINS:
        'crm=https://crm.example.com,https://crm-staging.example.com;erp=https://erp.example.com',
    };
    gateway = await createGatewayApp({ NODE_ENV: 'test', GATEWAY_RATE_LIMIT: 'off', ...env }, false);
    base = await listen(gateway);
    production = await createGatewayApp(
      { NODE_ENV: 'production', DOCS_LOGIN: 'docs:a-long-password', ...env },
      false,
    );
    prodBase = await listen(production);
  });

  afterAll(async () => {
    await gateway?.close();
    await production?.close();
    await upstream.stop();
  });

  describe('security headers', () => {
    it('are on proxied answers, own routes, the 404 and error envelopes alike', async () => {
      for (const res of [
        await call(`${base}/Calendar/events`),
        await call(`${base}/health/live`),
        await call(`${base}/nowhere`),
        await call(`${base}/loans/x`, { method: 'POST', headers: { 'content-length': '99999999' } }),
      ]) {
        expect(res.headers).toMatchObject({
          'x-content-type-options': 'nosniff',
          'x-frame-options': 'DENY',
          'referrer-policy': 'no-referrer',
          'cross-origin-resource-policy': 'same-origin',
          'cross-origin-opener-policy': 'same-origin',
          'content-security-policy': API_CSP,
        });
        expect(res.headers['strict-transport-security']).toBeUndefined();
        expect(res.headers['x-powered-by']).toBeUndefined();
      }
    });

    it('include HSTS only in production', async () => {
      for (const path of ['/Calendar/events', '/health/live', '/nowhere']) {
        const res = await call(`${prodBase}${path}`);
        expect(res.headers['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
      }
    });

    it('let Swagger UI run under /docs: its scripts and styles from self, inline styles, data: images, same-origin fetch', async () => {
      const res = await call(`${base}/docs`);
      const csp = String(res.headers['content-security-policy']);
      for (const directive of [
        "default-src 'self'",
        "script-src 'self'",
        "style-src 'self' 'unsafe-inline'",
        "img-src 'self' data:",
        "connect-src 'self'",
        "frame-ancestors 'none'",
      ])
        expect(csp).toContain(directive);
      expect(csp).not.toContain('unsafe-eval');
      expect(csp).not.toMatch(/script-src[^;]*unsafe-inline/);
      expect(String((await call(`${prodBase}/docs`)).headers['content-security-policy'])).toContain(
        'upgrade-insecure-requests',
      );
    });

    it('win over an upstream’s copies; an upstream CSP is kept next to the gateway’s frame-ancestors', async () => {
      const res = await call(
        `${base}/api/v1/verification-cases/C-1/summary/pdf?xfo=ALLOWALL&acao=*&csp=${encodeURIComponent("default-src 'self'")}`,
      );
      expect(res.headers['x-frame-options']).toBe('DENY');
      expect(res.headers['access-control-allow-origin']).toBeUndefined();
      expect(res.headers['x-powered-by']).toBeUndefined();
      // Two policies, both enforced by browsers: the service's own and the gateway's framing rule.
      expect(res.headers['content-security-policy']).toBe("default-src 'self', frame-ancestors 'none'");
    });

    it('let a product’s own sites frame its widget, and nobody else', async () => {
      const res = await call(`${base}/Calendar/widget/crm/week`);
      expect(res.headers['x-frame-options']).toBeUndefined();
      expect(res.headers['content-security-policy']).toBe(
        'frame-ancestors https://crm.example.com https://crm-staging.example.com',
      );
      expect(res.headers['cross-origin-resource-policy']).toBe('cross-origin');
      expect((await call(`${base}/Calendar/widget/unknown/week`)).headers['content-security-policy']).toBe(
        "frame-ancestors 'none'",
      );
    });
  });

  describe('CORS per route group', () => {
    const preflight = (path: string, origin: string, method: string, headers?: string) =>
      call(`${base}${path}`, {
        method: 'OPTIONS',
        headers: {
          origin,
          'access-control-request-method': method,
          ...(headers ? { 'access-control-request-headers': headers } : {}),
        },
      });

    it('public status: any origin, GET/HEAD only, no credentials; answered at the gateway', async () => {
      const before = upstream.seen.length;
      const ok = await preflight(
        '/PublicStatus/Products',
        'https://status-widget.example',
        'GET',
        'language-code',
      );
      expect(ok.status).toBe(204);
      expect(ok.headers).toMatchObject({
        'access-control-allow-origin': '*',
        'access-control-allow-methods': 'GET, HEAD, OPTIONS',
        'access-control-max-age': '600',
      });
      expect(ok.headers['access-control-allow-credentials']).toBeUndefined();
      const post = await preflight('/PublicStatus/Products', 'https://status-widget.example', 'POST');
      expect(post.status).toBe(403);
      expect(post.json).toMatchObject({ success: false, code: 403, value: { reason: 'FORBIDDEN' } });
      expect(post.headers['access-control-allow-origin']).toBeUndefined();
      const withKey = await preflight('/PublicStatus/Products', 'https://a.example', 'GET', 'api_key');
      expect(withKey.status).toBe(403);
      expect(upstream.seen.length).toBe(before);

      const get = await call(`${base}/PublicStatus/Products`, { headers: { origin: 'https://a.example' } });
      expect(get.headers['access-control-allow-origin']).toBe('*');
      expect(String(get.headers['access-control-expose-headers'])).toContain('X-Request-Id');
      const write = await call(`${base}/PublicStatus/Products`, {
        method: 'POST',
        headers: { origin: 'https://a.example', 'content-type': 'application/json' },
        body: '{}',
      });
      expect(write.headers['access-control-allow-origin']).toBeUndefined();
    });

    it('public status Subscribe: a browser form on any site may POST JSON there, nothing else', async () => {
      const before = upstream.seen.length;
      const ok = await preflight(
        '/PublicStatus/Subscribe',
        'https://status.customer.example',
        'POST',
        'content-type',
      );
      expect(ok.status).toBe(204);
      expect(ok.headers).toMatchObject({
        'access-control-allow-origin': '*',
        'access-control-allow-methods': 'GET, HEAD, POST, OPTIONS',
      });
      expect(String(ok.headers['access-control-allow-headers'])).toContain('Content-Type');
      expect(ok.headers['access-control-allow-credentials']).toBeUndefined();
      const remove = await preflight(
        '/PublicStatus/Subscribe',
        'https://status.customer.example',
        'DELETE',
        'content-type',
      );
      expect(remove.status).toBe(403);
      expect(remove.json).toMatchObject({ success: false, code: 403, value: { reason: 'FORBIDDEN' } });
      expect(remove.headers['access-control-allow-origin']).toBeUndefined();
      // Not under it either (the confirmation link is a GET).
      const below = await preflight(
        '/PublicStatus/Subscribe/confirm?token=t',
        'https://status.customer.example',
        'POST',
        'content-type',
      );
      expect(below.status).toBe(403);
      expect(upstream.seen.length).toBe(before);

      // The POST itself is forwarded and its answer readable by the page.
      const sent = await call(`${base}/PublicStatus/Subscribe`, {
        method: 'POST',
        headers: { origin: 'https://status.customer.example', 'content-type': 'application/json' },
        body: '{"email":"a@example.com"}',
      });
      expect(sent.headers['access-control-allow-origin']).toBe('*');
      expect(sent.headers['access-control-allow-credentials']).toBeUndefined();
      expect(upstream.seen.length).toBe(before + 1);
    });

    it('widget: only the origins its product registered, echoed with Vary: Origin', async () => {
      const ok = await preflight(
        '/Calendar/widget/crm/week',
        'https://crm.example.com',
        'POST',
        'authorization, content-type',
      );
      expect(ok.status).toBe(204);
      expect(ok.headers).toMatchObject({
        'access-control-allow-origin': 'https://crm.example.com',
        vary: 'Origin',
        'access-control-allow-methods': 'GET, HEAD, POST, OPTIONS',
      });
      expect((await preflight('/Calendar/widget/erp/week', 'https://crm.example.com', 'GET')).status).toBe(
        403,
      );
      expect((await preflight('/Calendar/widget/crm/week', 'https://evil.example', 'GET')).status).toBe(403);
      const get = await call(`${base}/Calendar/widget/erp/day`, {
        headers: { origin: 'https://erp.example.com' },
      });
      expect(get.headers['access-control-allow-origin']).toBe('https://erp.example.com');
      expect(get.headers.vary).toBe('Origin');
      const foreign = await call(`${base}/Calendar/widget/erp/day`, {
        headers: { origin: 'https://crm.example.com' },
      });
      expect(foreign.headers['access-control-allow-origin']).toBeUndefined();
    });

    it('everything else: no CORS headers at all, preflights refused', async () => {
      for (const path of [
        '/Calendar/events',
        '/api/v1/verification-cases',
        '/loans/1',
        '/health/ready',
        '/docs',
        '/nowhere',
      ]) {
        const res = await preflight(path, 'https://crm.example.com', 'GET');
        expect({ path, status: res.status }).toEqual({ path, status: 403 });
        expect(res.headers['access-control-allow-origin']).toBeUndefined();
      }
      const get = await call(`${base}/Calendar/events?acao=*`, {
        headers: { origin: 'https://crm.example.com' },
      });
      expect(Object.keys(get.headers).filter((h) => h.startsWith('access-control-'))).toEqual([]);
    });
  });

  describe('X-Forwarded-For and friends', () => {
    const spoofed = {
      'x-forwarded-for': '6.6.6.6',
      'x-real-ip': '6.6.6.6',
      'x-forwarded-proto': 'https',
      'x-forwarded-host': 'evil.example',
      forwarded: 'for=6.6.6.6;proto=https',
      'true-client-ip': '6.6.6.6',
    };

    it('replaces, never appends to, what an untrusted peer claims', async () => {
      await call(`${base}/Calendar/events`, { headers: spoofed });
      const h = upstream.last().headers;
      expect(h['x-forwarded-for']).toBe('127.0.0.1');
      expect(h['x-real-ip']).toBe('127.0.0.1');
      expect(h['x-forwarded-proto']).toBe('http');
      expect(h['x-forwarded-host']).toBe(new URL(base).host);
      expect(h.forwarded).toBeUndefined();
      expect(h['true-client-ip']).toBeUndefined();
      expect(JSON.stringify(h)).not.toContain('6.6.6.6');
    });

    it('keeps a trusted proxy’s chain and appends the proxy', async () => {
      await call(`${base}/Calendar/events`, {
        localAddress: '127.0.0.2',
        headers: {
          'x-forwarded-for': '203.0.113.5',
          'x-forwarded-proto': 'https',
          'x-forwarded-host': 'api.example.com',
        },
      });
      const h = upstream.last().headers;
      expect(h['x-forwarded-for']).toBe('203.0.113.5, 127.0.0.2');
      expect(h['x-real-ip']).toBe('203.0.113.5');
      expect(h['x-forwarded-proto']).toBe('https');
      expect(h['x-forwarded-host']).toBe('api.example.com');
    });

    it('does the same for a WebSocket upgrade', async () => {
      await new Promise<void>((resolve, reject) => {
        const u = new URL(`${base}/Calendar/live`);
        const req = httpRequest({
          host: u.hostname,
          port: u.port,
          path: u.pathname,
          headers: { connection: 'Upgrade', upgrade: 'websocket', ...spoofed },
        });
        req.on('upgrade', (_res, socket) => {
          socket.destroy();
          resolve();
        });
        req.on('error', reject);
        req.end();
      });
      const h = upstream.last().headers;
      expect([h['x-forwarded-for'], h['x-real-ip'], h.forwarded]).toEqual([
        '127.0.0.1',
        '127.0.0.1',
        undefined,
      ]);
    });
  });
});
