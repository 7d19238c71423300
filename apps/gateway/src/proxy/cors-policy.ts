import type { IncomingHttpHeaders } from 'node:http';
import type { CorsGroup } from '@platform/registry';

/** Product id -> the origins allowed to call its per-product routes from a browser. */
export type OriginMap = ReadonlyMap<string, ReadonlySet<string>>;

const PRODUCT_ID = /^[A-Za-z0-9._~-]{1,128}$/;

/** An origin exactly as a browser sends it: scheme, host and a non-default port, nothing else. */
function canonicalOrigin(text: string): string | undefined {
  try {
    const u = new URL(text);
    const bare = u.pathname === '/' && !u.search && !u.hash && !u.username && !u.password;
    return bare && (u.protocol === 'https:' || u.protocol === 'http:') ? u.origin : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Reads a per-product origins setting: `productId=https://a.example,https://b.example;other=https://c.example`
 * (whitespace around the separators is ignored; empty means no product may be embedded anywhere).
 */
export function parseOriginMap(text: string): { map: OriginMap; problems: string[] } {
  const map = new Map<string, Set<string>>();
  const problems: string[] = [];
  for (const part of text
    .split(';')
    .map((p) => p.trim())
    .filter(Boolean)) {
    const eq = part.indexOf('=');
    const product = eq === -1 ? '' : part.slice(0, eq).trim();
    if (!PRODUCT_ID.test(product)) {
      problems.push(`"${part}" is not productId=origin[,origin...]`);
      continue;
    }
    const origins = map.get(product) ?? new Set<string>();
    for (const raw of part
      .slice(eq + 1)
      .split(',')
      .map((o) => o.trim())) {
      const origin = canonicalOrigin(raw);
      if (origin) origins.add(origin);
      else problems.push(`"${raw}" (product ${product}) is not an origin such as https://app.example.com`);
    }
    map.set(product, origins);
  }
  return { map, problems };
}

/** Request headers a browser may send cross-origin, per group (safelisted ones need no listing). */
const PUBLIC_REQUEST_HEADERS = ['Accept-Language', 'Language-Code', 'X-Request-Id', 'If-None-Match'];
/** Where a public group allows POST: a JSON body is not a simple request, so Content-Type is asked for. */
const PUBLIC_POST_REQUEST_HEADERS = ['Content-Type', ...PUBLIC_REQUEST_HEADERS];
const PRODUCT_REQUEST_HEADERS = ['Authorization', 'Content-Type', ...PUBLIC_REQUEST_HEADERS];
/** Response headers a cross-origin script may read. */
const EXPOSED =
  'X-Request-Id, ETag, Age, X-Cache, Retry-After, RateLimit-Limit, RateLimit-Remaining, RateLimit-Reset';
const MAX_AGE = '600';
/** The public group's answer headers, the same for every request (read-only; callers copy them out). */
const ANY_ORIGIN: Readonly<Record<string, string>> = Object.freeze({ 'Access-Control-Allow-Origin': '*' });
const PUBLIC_RESPONSE: Readonly<Record<string, string>> = Object.freeze({
  ...ANY_ORIGIN,
  'Access-Control-Expose-Headers': EXPOSED,
});

export type Preflight = { allowed: true; headers: Record<string, string> } | { allowed: false };

/** A CORS preflight: OPTIONS with an Origin and the method the browser wants to send. */
export function isPreflight(method: string | undefined, headers: IncomingHttpHeaders): boolean {
  return method === 'OPTIONS' && !!headers.origin && !!headers['access-control-request-method'];
}

const one = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v);

/**
 * CORS per route group (decision 0013). `public`: any origin, the group's methods (POST on the route's
 * own path only, with Content-Type), never credentials.
 * `per-product`: only the origins the product registered, the product named by the path segment after
 * the route's prefix. No group: no CORS headers at all, and preflights are refused.
 */
export class CorsPolicy {
  constructor(private readonly originSettings: Readonly<Record<string, OriginMap>>) {}

  /** The answer to a preflight for a path matched by a rule with this group (or none). */
  preflight(group: CorsGroup | null, prefix: string, path: string, headers: IncomingHttpHeaders): Preflight {
    if (!group) return { allowed: false };
    const method = String(one(headers['access-control-request-method']) ?? '').toUpperCase();
    const methods = methodsAt(group, prefix, path);
    if (!methods.includes(method)) return { allowed: false };
    const allowedHeaders =
      group.kind === 'per-product'
        ? PRODUCT_REQUEST_HEADERS
        : methods.includes('POST')
          ? PUBLIC_POST_REQUEST_HEADERS
          : PUBLIC_REQUEST_HEADERS;
    const lower = new Set(allowedHeaders.map((h) => h.toLowerCase()));
    const requested = String(one(headers['access-control-request-headers']) ?? '')
      .split(',')
      .map((h) => h.trim().toLowerCase())
      .filter(Boolean);
    if (!requested.every((h) => lower.has(h))) return { allowed: false };
    const origin = this.allowOrigin(group, prefix, path, headers);
    if (!origin) return { allowed: false };
    return {
      allowed: true,
      headers: {
        ...origin,
        'Access-Control-Allow-Methods': [...methods, 'OPTIONS'].join(', '),
        'Access-Control-Allow-Headers': allowedHeaders.join(', '),
        'Access-Control-Max-Age': MAX_AGE,
      },
    };
  }

  /** CORS headers of an actual (non-preflight) response; empty for the no-CORS group. */
  response(
    group: CorsGroup | null,
    prefix: string,
    path: string,
    method: string | undefined,
    headers: IncomingHttpHeaders,
  ): Record<string, string> {
    if (!group || !methodsAt(group, prefix, path).includes(String(method))) {
      return group?.kind === 'per-product' ? { Vary: 'Origin' } : {};
    }
    if (group.kind === 'public') return PUBLIC_RESPONSE;
    const origin = this.allowOrigin(group, prefix, path, headers);
    return origin ? { ...origin, 'Access-Control-Expose-Headers': EXPOSED } : { Vary: 'Origin' };
  }

  /** The origins that may frame a per-product route's answer (its product's); none for other groups. */
  frameAncestors(group: CorsGroup, prefix: string, path: string): string[] {
    if (group.kind !== 'per-product') return [];
    const product = productOf(prefix, path);
    const origins =
      product === undefined ? undefined : this.originSettings[group.originsSetting]?.get(product);
    return origins ? [...origins] : [];
  }

  private allowOrigin(
    group: CorsGroup,
    prefix: string,
    path: string,
    headers: IncomingHttpHeaders,
  ): Record<string, string> | undefined {
    if (group.kind === 'public') return ANY_ORIGIN;
    const origin = one(headers.origin);
    if (!origin) return undefined;
    const product = productOf(prefix, path);
    const allowed =
      product === undefined ? undefined : this.originSettings[group.originsSetting]?.get(product);
    if (!allowed?.has(origin.toLowerCase())) return undefined;
    return { 'Access-Control-Allow-Origin': origin, Vary: 'Origin' };
  }
}

/**
 * The methods a group allows at this path. A public group's POST holds for its route's own path only
 * (`/PublicStatus/Subscribe`, or with a trailing slash), never for paths under it
 * (`/PublicStatus/Subscribe/confirm`): GET and HEAD are inherited, writes are not.
 */
function methodsAt(group: CorsGroup, prefix: string, path: string): readonly string[] {
  if (group.kind !== 'public' || !group.methods.includes('POST') || isRoutePath(prefix, path))
    return group.methods;
  return group.methods.filter((m) => m === 'GET' || m === 'HEAD');
}

/** The path (already matched to the rule) is the rule's own, not one under it. */
function isRoutePath(prefix: string, path: string): boolean {
  const q = path.indexOf('?');
  const bare = (q === -1 ? path : path.slice(0, q)).replace(/\/$/, '');
  return bare.split('/').length === prefix.split('/').length;
}

/** The path segment after the prefix: /Calendar/widget/<productId>/... */
export function productOf(prefix: string, path: string): string | undefined {
  const q = path.indexOf('?');
  const segment = (q === -1 ? path : path.slice(0, q)).split('/')[prefix.split('/').length];
  if (!segment) return undefined;
  try {
    const id = decodeURIComponent(segment);
    return PRODUCT_ID.test(id) ? id : undefined;
  } catch {
    return undefined;
  }
}
