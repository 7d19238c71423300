/** The services behind the gateway. */
export type Upstream = 'calendar' | 'public-status' | 'lending' | 'verification' | 'outbox-relay';

export interface RouteRule {
  /** Path prefix, matched case-insensitively on a segment boundary (Express routes are case-insensitive too). */
  prefix: string;
  upstream: Upstream;
  /** Replaces the matched prefix before forwarding (e.g. /health/calendar -> /health). */
  rewriteTo?: string;
}

const LENDING_AREAS = [
  '/applications',
  '/customers',
  '/loans',
  '/scoring',
  '/compliance',
  '/aml',
  '/collection',
  '/funding',
  '/reporting',
  '/tax-reporting',
  '/public/customer',
];

const SERVICES: Upstream[] = ['calendar', 'public-status', 'lending', 'verification', 'outbox-relay'];

/**
 * The one declarative route table. Partners call the gateway; each path belongs to exactly one
 * service, which answers synchronously. Order matters only where prefixes nest (more specific first).
 */
export const ROUTE_TABLE: readonly RouteRule[] = [
  ...SERVICES.map((s) => ({ prefix: `/health/${s}`, upstream: s, rewriteTo: '/health' })),
  { prefix: '/Calendar', upstream: 'calendar' },
  { prefix: '/PublicStatus', upstream: 'public-status' },
  { prefix: '/api/v1', upstream: 'verification' },
  ...LENDING_AREAS.map((prefix) => ({ prefix, upstream: 'lending' as const })),
];

export interface RouteMatch {
  rule: RouteRule;
  /** Path and query to send upstream. */
  upstreamPath: string;
}

export function matchRoute(url: string, table: readonly RouteRule[] = ROUTE_TABLE): RouteMatch | undefined {
  const q = url.indexOf('?');
  const path = q === -1 ? url : url.slice(0, q);
  const query = q === -1 ? '' : url.slice(q);
  const lower = path.toLowerCase();
  for (const rule of table) {
    const p = rule.prefix.toLowerCase();
    if (lower === p || lower.startsWith(`${p}/`)) {
      const rest = path.slice(rule.prefix.length);
      const upstreamPath = rule.rewriteTo !== undefined ? `${rule.rewriteTo}${rest}` : path;
      return { rule, upstreamPath: `${upstreamPath || '/'}${query}` };
    }
  }
  return undefined;
}
