import type { CorsGroup } from '@platform/registry';
import { readRouteManifest } from '@platform/testing';
import { CorsPolicy, isPreflight, parseOriginMap, productOf } from './cors-policy';
import { ROUTE_TABLE, matchRoute } from './route-table';

const PUBLIC: CorsGroup = { kind: 'public', methods: ['GET', 'HEAD'] };
const PUBLIC_FORM: CorsGroup = { kind: 'public', methods: ['GET', 'HEAD', 'POST'] };
const SUBSCRIBE = '/PublicStatus/Subscribe';
const WIDGET: CorsGroup = {
  kind: 'per-product',
  originsSetting: 'WIDGET_ORIGINS',
  methods: ['GET', 'HEAD', 'POST'],
};
const WIDGET_PREFIX = '/Calendar/widget';

describe('per-product origins setting', () => {
  it('reads productId=origin[,origin...] entries separated by semicolons', () => {
    const { map, problems } = parseOriginMap(
      ' crm = https://crm.example.com, https://CRM.example.com:8443 ; erp=http://localhost:5173;crm=https://b.example/',
    );
    expect(problems).toEqual([]);
    expect([...map.keys()]).toEqual(['crm', 'erp']);
    expect([...(map.get('crm') ?? [])]).toEqual([
      'https://crm.example.com',
      'https://crm.example.com:8443',
      'https://b.example',
    ]);
    expect([...(map.get('erp') ?? [])]).toEqual(['http://localhost:5173']);
    expect(parseOriginMap('').map.size).toBe(0);
  });

  it('names what is not an origin or not an entry', () => {
    expect(
      parseOriginMap(
        'crm=https://a.example/path,ftp://b.example,*;=https://c.example;bad id=https://d.example',
      ).problems,
    ).toEqual([
      '"https://a.example/path" (product crm) is not an origin such as https://app.example.com',
      '"ftp://b.example" (product crm) is not an origin such as https://app.example.com',
      '"*" (product crm) is not an origin such as https://app.example.com',
      '"=https://c.example" is not productId=origin[,origin...]',
      '"bad id=https://d.example" is not productId=origin[,origin...]',
    ]);
  });

  it('takes the product from the segment after the prefix', () => {
    expect(productOf(WIDGET_PREFIX, '/Calendar/widget/crm/week?x=1')).toBe('crm');
    expect(productOf(WIDGET_PREFIX, '/calendar/widget/crm')).toBe('crm');
    expect(productOf(WIDGET_PREFIX, '/Calendar/widget')).toBeUndefined();
    expect(productOf(WIDGET_PREFIX, '/Calendar/widget/%ff/x')).toBeUndefined();
  });
});

describe('CORS per route group', () => {
  const policy = new CorsPolicy({ WIDGET_ORIGINS: parseOriginMap('crm=https://crm.example.com').map });
  const preflight = (
    group: CorsGroup | null,
    path: string,
    origin: string,
    method: string,
    headers?: string,
    prefix = WIDGET_PREFIX,
  ) =>
    policy.preflight(group, prefix, path, {
      origin,
      'access-control-request-method': method,
      ...(headers ? { 'access-control-request-headers': headers } : {}),
    });

  it('recognises a preflight only with an Origin and a requested method', () => {
    expect(isPreflight('OPTIONS', { origin: 'https://a', 'access-control-request-method': 'GET' })).toBe(
      true,
    );
    expect(isPreflight('OPTIONS', { origin: 'https://a' })).toBe(false);
    expect(isPreflight('GET', { origin: 'https://a', 'access-control-request-method': 'GET' })).toBe(false);
  });

  it('public: any origin, GET/HEAD only, listed headers only, never credentials', () => {
    const ok = preflight(
      PUBLIC,
      '/PublicStatus/Products',
      'https://anyone.example',
      'GET',
      'Language-Code, x-request-id',
      '/PublicStatus',
    );
    expect(ok).toEqual({
      allowed: true,
      headers: {
        'Access-Control-Allow-Origin': '*',
        'Access-Control-Allow-Methods': 'GET, HEAD, OPTIONS',
        'Access-Control-Allow-Headers': 'Accept-Language, Language-Code, X-Request-Id, If-None-Match',
        'Access-Control-Max-Age': '600',
      },
    });
    expect(JSON.stringify(ok)).not.toContain('Credentials');
    expect(
      preflight(PUBLIC, '/PublicStatus/Products', 'https://a', 'POST', undefined, '/PublicStatus'),
    ).toEqual({ allowed: false });
    expect(
      preflight(PUBLIC, '/PublicStatus/Products', 'https://a', 'GET', 'Authorization', '/PublicStatus'),
    ).toEqual({ allowed: false });
    expect(
      policy.response(PUBLIC, '/PublicStatus', '/PublicStatus/Products', 'GET', { origin: 'https://a' }),
    ).toMatchObject({
      'Access-Control-Allow-Origin': '*',
    });
    expect(
      policy.response(PUBLIC, '/PublicStatus', '/PublicStatus/Products', 'POST', { origin: 'https://a' }),
    ).toEqual({});
  });

  it('public with POST (the subscribe form): POST and Content-Type on the route’s own path only', () => {
    const ok = preflight(
      PUBLIC_FORM,
      SUBSCRIBE,
      'https://status.anyone.example',
      'POST',
      'content-type',
      SUBSCRIBE,
    );
    expect(ok).toEqual({
      allowed: true,
      headers: {
        'Access-Control-Allow-Origin': '*',
        'Access-Control-Allow-Methods': 'GET, HEAD, POST, OPTIONS',
        'Access-Control-Allow-Headers':
          'Content-Type, Accept-Language, Language-Code, X-Request-Id, If-None-Match',
        'Access-Control-Max-Age': '600',
      },
    });
    expect(JSON.stringify(ok)).not.toContain('Credentials');
    // The same path however it is spelled: case, a trailing slash, a query.
    for (const path of ['/publicstatus/subscribe', `${SUBSCRIBE}/`, `${SUBSCRIBE}?lang=es`])
      expect(
        preflight(PUBLIC_FORM, path, 'https://a', 'POST', 'Content-Type, Language-Code', SUBSCRIBE),
      ).toMatchObject({ allowed: true });
    // Other writes, or credentials, stay refused.
    for (const method of ['PUT', 'PATCH', 'DELETE'])
      expect(preflight(PUBLIC_FORM, SUBSCRIBE, 'https://a', method, 'content-type', SUBSCRIBE)).toEqual({
        allowed: false,
      });
    expect(
      preflight(PUBLIC_FORM, SUBSCRIBE, 'https://a', 'POST', 'content-type, authorization', SUBSCRIBE),
    ).toEqual({ allowed: false });
    // Paths under the route inherit GET/HEAD, never the POST.
    const confirm = `${SUBSCRIBE}/confirm?token=t`;
    expect(preflight(PUBLIC_FORM, confirm, 'https://a', 'POST', 'content-type', SUBSCRIBE)).toEqual({
      allowed: false,
    });
    expect(preflight(PUBLIC_FORM, confirm, 'https://a', 'GET', undefined, SUBSCRIBE)).toMatchObject({
      allowed: true,
      headers: {
        'Access-Control-Allow-Methods': 'GET, HEAD, OPTIONS',
        'Access-Control-Allow-Headers': 'Accept-Language, Language-Code, X-Request-Id, If-None-Match',
      },
    });
    expect(preflight(PUBLIC_FORM, confirm, 'https://a', 'GET', 'content-type', SUBSCRIBE)).toEqual({
      allowed: false,
    });
    // The answer to the POST itself can be read by the page (including a 429's Retry-After).
    const answer = policy.response(PUBLIC_FORM, SUBSCRIBE, SUBSCRIBE, 'POST', { origin: 'https://a' });
    expect(answer).toMatchObject({ 'Access-Control-Allow-Origin': '*' });
    expect(answer['Access-Control-Expose-Headers']).toContain('Retry-After');
    expect(policy.response(PUBLIC_FORM, SUBSCRIBE, confirm, 'POST', { origin: 'https://a' })).toEqual({});
    expect(policy.response(PUBLIC_FORM, SUBSCRIBE, confirm, 'GET', { origin: 'https://a' })).toMatchObject({
      'Access-Control-Allow-Origin': '*',
    });
  });

  it('per product: only the product’s origins, echoed with Vary: Origin', () => {
    const ok = preflight(
      WIDGET,
      '/Calendar/widget/crm/week',
      'https://crm.example.com',
      'POST',
      'authorization,content-type',
    );
    expect(ok).toMatchObject({
      allowed: true,
      headers: {
        'Access-Control-Allow-Origin': 'https://crm.example.com',
        Vary: 'Origin',
        'Access-Control-Allow-Methods': 'GET, HEAD, POST, OPTIONS',
      },
    });
    // Another product's page, or this origin for another product, or a product not configured.
    expect(preflight(WIDGET, '/Calendar/widget/erp/week', 'https://crm.example.com', 'GET')).toEqual({
      allowed: false,
    });
    expect(preflight(WIDGET, '/Calendar/widget/crm/week', 'https://evil.example', 'GET')).toEqual({
      allowed: false,
    });
    expect(preflight(WIDGET, '/Calendar/widget/crm/week', 'null', 'GET')).toEqual({ allowed: false });
    expect(preflight(WIDGET, '/Calendar/widget/crm/week', 'https://crm.example.com', 'DELETE')).toEqual({
      allowed: false,
    });
    expect(
      policy.response(WIDGET, WIDGET_PREFIX, '/Calendar/widget/crm/week', 'GET', {
        origin: 'https://crm.example.com',
      }),
    ).toMatchObject({
      'Access-Control-Allow-Origin': 'https://crm.example.com',
      Vary: 'Origin',
    });
    expect(
      policy.response(WIDGET, WIDGET_PREFIX, '/Calendar/widget/crm/week', 'GET', {
        origin: 'https://evil.example',
      }),
    ).toEqual({
      Vary: 'Origin',
    });
    expect(policy.frameAncestors(WIDGET, WIDGET_PREFIX, '/Calendar/widget/crm')).toEqual([
      'https://crm.example.com',
    ]);
    expect(policy.frameAncestors(WIDGET, WIDGET_PREFIX, '/Calendar/widget/erp')).toEqual([]);
  });

  it('no group: no CORS headers and every preflight refused', () => {
    expect(preflight(null, '/Calendar/events', 'https://crm.example.com', 'GET')).toEqual({ allowed: false });
    expect(
      policy.response(null, '/Calendar', '/Calendar/events', 'GET', { origin: 'https://crm.example.com' }),
    ).toEqual({});
  });
});

describe('CORS groups the registry declares', () => {
  const policy = new CorsPolicy({});
  const preflight = (url: string, method: string, headers?: string) => {
    const m = matchRoute(url);
    return policy.preflight(m?.rule.cors ?? null, m?.rule.prefix ?? '', url, {
      origin: 'https://status.customer.example',
      'access-control-request-method': method,
      ...(headers ? { 'access-control-request-headers': headers } : {}),
    });
  };

  it('public status: a cross-origin POST with a JSON body to Subscribe, and to no other of its paths', () => {
    expect(preflight('/PublicStatus/Subscribe', 'POST', 'content-type')).toMatchObject({
      allowed: true,
      headers: {
        'Access-Control-Allow-Origin': '*',
        'Access-Control-Allow-Methods': 'GET, HEAD, POST, OPTIONS',
      },
    });
    expect(preflight('/PublicStatus/Subscribe', 'DELETE')).toEqual({ allowed: false });
    for (const url of [
      '/PublicStatus/Products',
      '/PublicStatus/Subscribe/confirm?token=t',
      // RFC 8058 one-click unsubscribe is posted by mail clients, not by pages in a browser.
      '/PublicStatus/Unsubscribe?token=t',
      '/PublicStatus/manage/incidents',
    ])
      expect([url, preflight(url, 'POST', 'content-type')]).toEqual([url, { allowed: false }]);
    // Reads keep working as before, without Content-Type.
    expect(preflight('/PublicStatus/Products?business=platform', 'GET', 'language-code')).toMatchObject({
      allowed: true,
      headers: { 'Access-Control-Allow-Methods': 'GET, HEAD, OPTIONS' },
    });
    expect(preflight('/PublicStatus/Products', 'GET', 'content-type')).toEqual({ allowed: false });
  });

  it('opens POST cross-origin only on a route whose service declares an anonymous POST at exactly that path', () => {
    const publicWrites = ROUTE_TABLE.filter(
      (r) => r.cors?.kind === 'public' && (r.cors.methods as readonly string[]).includes('POST'),
    );
    expect(publicWrites.map((r) => r.prefix)).toEqual(['/PublicStatus/Subscribe']);
    for (const r of publicWrites) {
      const declared = readRouteManifest(r.upstream).filter(
        (x) => x.method === 'POST' && x.path.toLowerCase() === r.prefix.toLowerCase(),
      );
      expect([r.prefix, declared.map((x) => x.access)]).toEqual([r.prefix, ['public']]);
    }
  });
});
