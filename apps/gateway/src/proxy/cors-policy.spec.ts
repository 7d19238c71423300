import type { CorsGroup } from '@platform/registry';
import { CorsPolicy, isPreflight, parseOriginMap, productOf } from './cors-policy';

const PUBLIC: CorsGroup = { kind: 'public', methods: ['GET', 'HEAD'] };
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
