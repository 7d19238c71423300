import {
  GATEWAY_DEFAULT_LIMITS,
  GATEWAY_HEALTH_LIMITS,
  ROUTED_SERVICES,
  type CorsGroup,
  type GatewayExposure,
  type GatewayLimits,
  type PerIpRateLimit,
  type RoutedServiceName,
} from '@platform/registry';

/** The services behind the gateway (libs/registry). */
export type Upstream = RoutedServiceName;

export interface RouteRule {
  /**
   * Path prefix, matched case-insensitively on a segment boundary (Express routes are case-insensitive
   * too); a `*` segment matches any one segment.
   */
  prefix: string;
  upstream: Upstream;
  /** Replaces the matched prefix before forwarding (e.g. /health/calendar -> /health). */
  rewriteTo?: string;
  /** Timeout and body limit of requests under this prefix (registry, then the defaults). */
  limits: GatewayLimits;
  /** Who may call it from a browser on another origin; null: nobody (no CORS headers at all). */
  cors: CorsGroup | null;
  /** Per-client-IP budget (decision 0022); null: not limited. */
  rateLimit: RouteRateLimit | null;
  /** Headers the gateway adds to its own refusals here (the registry's `answerHeaders`). */
  answerHeaders?: Readonly<Record<string, string>>;
}

/** A registry budget with the name of the count it belongs to (routes inheriting the app's share it). */
export interface RouteRateLimit extends PerIpRateLimit {
  /** `<service>` for the app's own budget, `<service>:<path>` for a route's. */
  readonly id: string;
}

const segments = (prefix: string) => prefix.split('/').length;

/**
 * The route table, derived from the service registry: each service's health under /health/<service>,
 * the public prefixes it owns and the paths under them with their own limits or CORS group. Each path
 * belongs to exactly one service, which answers synchronously. Longer prefixes come first, so a nested
 * prefix wins wherever it is declared.
 *
 * @param defaults limits of routes that declare none; the gateway passes its configured timeout.
 */
export function buildRouteTable(defaults: GatewayLimits = GATEWAY_DEFAULT_LIMITS): readonly RouteRule[] {
  const rules: RouteRule[] = [
    ...ROUTED_SERVICES.map((s) => ({
      prefix: `/health/${s.name}`,
      upstream: s.name,
      rewriteTo: s.health,
      limits: GATEWAY_HEALTH_LIMITS,
      cors: null,
      rateLimit: null,
    })),
    ...ROUTED_SERVICES.flatMap((s) => {
      const exposure: GatewayExposure = s.gateway;
      const limits = { ...defaults, ...exposure.limits };
      const cors = exposure.cors ?? null;
      const rateLimit = exposure.rateLimit ? { id: s.name, ...exposure.rateLimit } : null;
      const answerHeaders = exposure.answerHeaders;
      // Declared routes before the bare prefixes: the sort below is stable, so a route whose path is
      // one of the prefixes (verification's `/portal/v1` with its own budget) wins over the prefix.
      return [
        ...(exposure.routes ?? []).map((r) => ({
          prefix: r.path,
          upstream: s.name,
          limits: { ...limits, ...r.limits },
          cors: r.cors ?? cors,
          rateLimit:
            r.rateLimit === 'off'
              ? null
              : r.rateLimit
                ? { id: `${s.name}:${r.path.toLowerCase()}`, ...r.rateLimit }
                : rateLimit,
          answerHeaders,
        })),
        ...exposure.prefixes.map((prefix) => ({
          prefix,
          upstream: s.name,
          limits,
          cors,
          rateLimit,
          answerHeaders,
        })),
      ];
    }),
  ];
  return rules.sort((a, b) => segments(b.prefix) - segments(a.prefix));
}

export const ROUTE_TABLE: readonly RouteRule[] = buildRouteTable();

export interface RouteMatch {
  rule: RouteRule;
  /** Path and query to send upstream. */
  upstreamPath: string;
}

type Matcher = (lowerPath: string) => boolean;
const matchers = new WeakMap<RouteRule, Matcher>();

function matcherOf(rule: RouteRule): Matcher {
  let m = matchers.get(rule);
  if (m) return m;
  const p = rule.prefix.toLowerCase();
  if (p.includes('*')) {
    const source = p
      .split('/')
      .map((seg) => (seg === '*' ? '[^/]+' : seg.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
      .join('/');
    const re = new RegExp(`^${source}(?:/|$)`);
    m = (lower) => re.test(lower);
  } else {
    const under = `${p}/`;
    m = (lower) => lower === p || lower.startsWith(under);
  }
  matchers.set(rule, m);
  return m;
}

export function matchRoute(url: string, table: readonly RouteRule[] = ROUTE_TABLE): RouteMatch | undefined {
  const q = url.indexOf('?');
  const path = q === -1 ? url : url.slice(0, q);
  const query = q === -1 ? '' : url.slice(q);
  const lower = path.toLowerCase();
  for (const rule of table) {
    if (matcherOf(rule)(lower)) {
      const rest = path.slice(rule.prefix.length);
      const upstreamPath = rule.rewriteTo !== undefined ? `${rule.rewriteTo}${rest}` : path;
      return { rule, upstreamPath: `${upstreamPath || '/'}${query}` };
    }
  }
  return undefined;
}
