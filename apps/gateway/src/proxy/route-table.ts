import { ROUTED_SERVICES, type RoutedServiceName } from '@platform/registry';

/** The services behind the gateway (libs/registry). */
export type Upstream = RoutedServiceName;

export interface RouteRule {
  /** Path prefix, matched case-insensitively on a segment boundary (Express routes are case-insensitive too). */
  prefix: string;
  upstream: Upstream;
  /** Replaces the matched prefix before forwarding (e.g. /health/calendar -> /health). */
  rewriteTo?: string;
}

const segments = (prefix: string) => prefix.split('/').length;

/**
 * The route table, derived from the service registry: each service's health under /health/<service>
 * and the public prefixes it owns. Each path belongs to exactly one service, which answers
 * synchronously. Longer prefixes come first, so a nested prefix wins wherever it is declared.
 */
export const ROUTE_TABLE: readonly RouteRule[] = [
  ...ROUTED_SERVICES.map((s) => ({ prefix: `/health/${s.name}`, upstream: s.name, rewriteTo: s.health })),
  ...ROUTED_SERVICES.flatMap((s) => s.gateway.prefixes.map((prefix) => ({ prefix, upstream: s.name }))),
].sort((a, b) => segments(b.prefix) - segments(a.prefix));

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
