import { createHash } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import { resolveLanguage } from '@platform/i18n';

/**
 * Request headers that carry a credential in this platform (calendar `API_KEY` and `PlatformSession`,
 * lending `X-Api-Key`, verification `X-API-Key`, bearer tokens, cookies). A request with any of them
 * is never answered from the cache and never fills it, whatever the upstream says: Node lower-cases
 * names, so `X-Api-Key` and `X-API-Key` are one entry.
 */
export const CREDENTIAL_HEADERS = [
  'authorization',
  'proxy-authorization',
  'api_key',
  'api-key',
  'x-api-key',
  'platformsession',
  'cookie',
] as const;

/**
 * Vary names the cache can key on. The language headers are covered by the resolved language, which is
 * in every key (our services choose their language with the same resolveLanguage, so two requests
 * resolving to one language get the same answer); the others are keyed by their raw value.
 */
const LANGUAGE_VARY = new Set(['accept-language', 'language-code']);
const KEYABLE_VARY = new Set(['accept', 'accept-encoding']);

export type Bypass = 'method' | 'credentials' | 'range' | 'body' | 'upgrade';

/** Why a request may neither be answered from the cache nor fill it; undefined when it may. */
export function bypassReason(method: string | undefined, headers: IncomingHttpHeaders): Bypass | undefined {
  if (method !== 'GET' && method !== 'HEAD') return 'method';
  if (CREDENTIAL_HEADERS.some((h) => headers[h] !== undefined)) return 'credentials';
  if (headers.range !== undefined) return 'range';
  if (headers['transfer-encoding'] !== undefined || Number(headers['content-length'] ?? 0) > 0) return 'body';
  if (headers.upgrade !== undefined) return 'upgrade';
  return undefined;
}

/** Cache-Control directives, lower-cased; a directive's value without quotes, `true` without one. */
export function parseCacheControl(value: string | string[] | undefined): Map<string, string | true> {
  const out = new Map<string, string | true>();
  const text = Array.isArray(value) ? value.join(',') : (value ?? '');
  for (const part of text.split(',')) {
    const eq = part.indexOf('=');
    const name = (eq === -1 ? part : part.slice(0, eq)).trim().toLowerCase();
    if (!name) continue;
    const raw =
      eq === -1
        ? true
        : part
            .slice(eq + 1)
            .trim()
            .replace(/^"(.*)"$/, '$1');
    // A repeated directive is invalid (RFC 9111 4.2.1): the stricter reading is the first one.
    if (!out.has(name)) out.set(name, raw);
  }
  return out;
}

/** Lower-cased header names from Vary; ['*'] for the wildcard. */
export function parseVary(value: string | string[] | undefined): string[] {
  const text = Array.isArray(value) ? value.join(',') : (value ?? '');
  const names = text
    .split(',')
    .map((n) => n.trim().toLowerCase())
    .filter(Boolean);
  return names.includes('*') ? ['*'] : [...new Set(names)];
}

export interface StorePolicy {
  /** Largest max-age honoured, in seconds. */
  maxTtlSec: number;
  /** Largest body stored, in bytes. */
  maxEntryBytes: number;
}

export type Storability =
  | {
      store: true;
      /** Seconds the entry stays fresh in the gateway (max-age capped, minus the age it arrived with). */
      ttlSec: number;
      /** Age the response already had upstream (its Age header). */
      initialAgeSec: number;
      /** Vary names keyed by raw value (the language ones excluded: always keyed). */
      vary: string[];
    }
  | { store: false; reason: string };

/**
 * Whether an upstream answer to an anonymous GET may be kept, like a shared cache: 200, `public` with a
 * positive `s-maxage` or `max-age`, not `private`/`no-store`/`no-cache`, no `Set-Cookie`, a Vary the
 * cache can key on, and a declared length within the entry cap.
 */
export function storability(status: number, headers: IncomingHttpHeaders, policy: StorePolicy): Storability {
  if (status !== 200) return { store: false, reason: `status ${status}` };
  const cc = parseCacheControl(headers['cache-control']);
  if (!cc.has('public')) return { store: false, reason: 'not public' };
  for (const refusal of ['private', 'no-store', 'no-cache'])
    if (cc.has(refusal)) return { store: false, reason: refusal };
  if (headers['set-cookie'] !== undefined) return { store: false, reason: 'set-cookie' };
  if (headers['content-range'] !== undefined) return { store: false, reason: 'partial' };
  const lifetime = cc.get('s-maxage') ?? cc.get('max-age');
  if (typeof lifetime !== 'string' || !/^\d{1,9}$/.test(lifetime) || Number(lifetime) === 0)
    return { store: false, reason: 'no max-age' };
  const declared = headers['content-length'];
  if (declared !== undefined && Number(declared) > policy.maxEntryBytes)
    return { store: false, reason: 'too large' };
  const vary = parseVary(headers.vary);
  const unkeyable = vary.filter((n) => !LANGUAGE_VARY.has(n) && !KEYABLE_VARY.has(n));
  if (unkeyable.length) return { store: false, reason: `vary ${unkeyable.join(',')}` };
  const age = Number(headers.age);
  const initialAgeSec = Number.isInteger(age) && age > 0 ? age : 0;
  const ttlSec = Math.min(Number(lifetime), policy.maxTtlSec) - initialAgeSec;
  if (ttlSec <= 0) return { store: false, reason: 'already stale' };
  return { store: true, ttlSec, initialAgeSec, vary: vary.filter((n) => KEYABLE_VARY.has(n)) };
}

/**
 * The part of a key every request has: path and query as sent (so the same URL hits whatever its
 * case) and the language the services would answer in.
 */
export function primaryKey(url: string, headers: IncomingHttpHeaders): string {
  return `${resolveLanguage(headers)} ${url}`;
}

/** The values of the Vary'd headers, as the second part of a key. */
export function varyValues(vary: readonly string[], headers: IncomingHttpHeaders): string {
  return vary
    .map((name) => {
      const v = headers[name];
      return `${name}=${(Array.isArray(v) ? v.join(',') : (v ?? '')).replace(/\s+/g, ' ').trim()}`;
    })
    .join('\n');
}

/** A strong validator from the body: the same bytes give the same ETag on every replica. */
export function strongEtag(body: Buffer): string {
  return `"${createHash('sha256').update(body).digest('base64url').slice(0, 32)}"`;
}

/**
 * If-None-Match against an entity tag, with the weak comparison RFC 9110 prescribes for it: `*`
 * matches any, `W/"x"` matches `"x"`.
 */
export function noneMatch(ifNoneMatch: string | string[] | undefined, etag: string): boolean {
  if (ifNoneMatch === undefined) return false;
  const text = Array.isArray(ifNoneMatch) ? ifNoneMatch.join(',') : ifNoneMatch;
  if (text.trim() === '*') return true;
  const opaque = (tag: string) => tag.replace(/^W\//, '');
  const target = opaque(etag.trim());
  for (const m of text.matchAll(/(?:W\/)?"[^"]*"/g)) if (opaque(m[0]) === target) return true;
  return false;
}
