import { IncomingMessage, ServerResponse } from 'node:http';
import { Socket } from 'node:net';
import { SecurityHeaders, type HeaderGroup } from './security-headers';

/** A real response object, with an upstream-style header the gateway must remove. */
function response(): { req: IncomingMessage; res: ServerResponse } {
  const req = new IncomingMessage(new Socket());
  const res = new ServerResponse(req);
  res.setHeader('X-Powered-By', 'Express');
  return { req, res };
}

function headersOf(production: boolean, group: HeaderGroup, frameAncestors: string[] = []) {
  const { req, res } = response();
  new SecurityHeaders(production).apply(req, res, group, frameAncestors);
  return res.getHeaders();
}

describe('SecurityHeaders (helmet recorded once, replayed per response)', () => {
  it('gives an API response the full set, no HSTS outside production, and removes X-Powered-By', () => {
    const h = headersOf(false, 'api');
    expect(h).toMatchObject({
      'x-content-type-options': 'nosniff',
      'referrer-policy': 'no-referrer',
      'x-frame-options': 'DENY',
      'cross-origin-resource-policy': 'same-origin',
      'cross-origin-opener-policy': 'same-origin',
      'origin-agent-cluster': '?1',
      'x-dns-prefetch-control': 'off',
      'content-security-policy':
        "default-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
    });
    expect(h['x-powered-by']).toBeUndefined();
    expect(h['strict-transport-security']).toBeUndefined();
  });

  it('adds HSTS in production, and the docs CSP upgrades insecure requests there', () => {
    const h = headersOf(true, 'docs');
    expect(h['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
    expect(String(h['content-security-policy'])).toMatch(/script-src 'self'.*upgrade-insecure-requests$/);
  });

  it('lets public answers be read cross-origin and widgets be framed only by their origins', () => {
    expect(headersOf(false, 'public')).toMatchObject({
      'cross-origin-resource-policy': 'cross-origin',
      'x-frame-options': 'DENY',
    });
    const widget = headersOf(false, 'widget', ['https://app.example']);
    expect(widget['x-frame-options']).toBeUndefined();
    expect(widget['content-security-policy']).toBe('frame-ancestors https://app.example');
  });

  it('gives every response its own values (a replayed list is not shared state)', () => {
    const s = new SecurityHeaders(false);
    const a = response();
    const b = response();
    s.apply(a.req, a.res, 'widget', ['https://a.example']);
    s.apply(b.req, b.res, 'api');
    expect(a.res.getHeader('content-security-policy')).toBe('frame-ancestors https://a.example');
    expect(b.res.getHeader('x-frame-options')).toBe('DENY');
  });
});
