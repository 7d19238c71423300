import type { AuditedRoute } from '@platform/auth';

/** One request that must be refused: `route` called by `scheme` holding everything but `withhold`. */
export interface DenialCase {
  method: string;
  /** The route's path with any `:param` filled with a well-formed id. */
  path: string;
  scheme: string;
  rule: 'all-of' | 'any-of';
  withhold: string[];
}

const SAMPLE_ID = '00000000-0000-4000-8000-000000000000';

/**
 * Every way to lack what an authenticated route demands, from the route audit: for an all-of rule one
 * case per required scope, for an any-of rule one case lacking all of them, for each scheme the route
 * accepts. Exempt routes have none (the app's test lists them by name).
 */
export function scopeDenialCases(routes: readonly AuditedRoute[]): DenialCase[] {
  return routes.flatMap((r) => {
    const rule = r.authorization;
    if (r.access !== 'authenticated' || !rule || rule.kind === 'exempt') return [];
    const path = r.path.replace(/:[^/]+/g, SAMPLE_ID);
    const withholdings = rule.kind === 'all-of' ? rule.scopes.map((s) => [s]) : [[...rule.scopes]];
    return r.schemes.flatMap((scheme) =>
      withholdings.map((withhold) => ({ method: r.method, path, scheme, rule: rule.kind, withhold })),
    );
  });
}

/** Routes authenticated under a named exemption, as `METHOD /path: reason`. */
export function exemptRoutes(routes: readonly AuditedRoute[]): string[] {
  return routes.flatMap((r) =>
    r.authorization?.kind === 'exempt' ? [`${r.method} ${r.path}: ${r.authorization.reason}`] : [],
  );
}
