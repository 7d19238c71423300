import type { INestApplication } from '@nestjs/common';
import type { AuditedRoute } from '@platform/auth';
import { TenancyAdminService } from '@platform/tenancy';
import { createTestDatabase } from './database';
import { serviceEnv } from './env';
import { listen, request } from './http';

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

export interface KeyScopeWalk {
  base: string;
  /** Request headers of a fresh key of one tenant holding exactly `scopes`. */
  headersFor(scopes: string[]): Promise<Record<string, string>>;
  close(): Promise<void>;
}

/**
 * Deny by default, walked for a service whose callers are keys with scopes: every authenticated route
 * from the audit, called with a key lacking each scope it demands, answers 403 SCOPE_MISSING naming
 * what is missing; with every scope, not 403. Registers its own `describe`.
 */
export function describeKeyScopeWalk(
  title: string,
  opts: {
    routes: readonly AuditedRoute[];
    allScopes: readonly string[];
    exempt: string[];
    start: () => Promise<KeyScopeWalk>;
  },
): void {
  const cases = scopeDenialCases(opts.routes);
  describe(title, () => {
    let walk: KeyScopeWalk;

    beforeAll(async () => {
      walk = await opts.start();
    });

    afterAll(async () => {
      await walk?.close();
    });

    it('covers every authenticated route, with exactly the named exemptions', () => {
      const covered = new Set(cases.map((c) => `${c.method} ${c.path}`));
      const authenticated = opts.routes.filter(
        (r) => r.access === 'authenticated' && r.authorization?.kind !== 'exempt',
      );
      expect(covered.size).toBe(authenticated.length);
      expect(exemptRoutes(opts.routes)).toEqual(opts.exempt);
    });

    it.each(cases.map((c) => [`${c.method} ${c.path} without ${c.withhold.join('+')}`, c] as const))(
      '%s: 403 SCOPE_MISSING; with the scope: not 403',
      async (_name, c) => {
        const call = async (scopes: string[]) =>
          request<{ value: { reason?: string; missingScopes?: string[] } }>(`${walk.base}${c.path}`, {
            method: c.method,
            headers: await walk.headersFor(scopes),
            body: c.method === 'GET' ? undefined : {},
          });
        const denied = await call(opts.allScopes.filter((s) => !c.withhold.includes(s)));
        expect([denied.status, denied.body.value.reason]).toEqual([403, 'SCOPE_MISSING']);
        expect(denied.body.value.missingScopes).toEqual(c.withhold);
        expect((await call([...opts.allScopes])).status).not.toBe(403);
      },
    );
  });
}

/**
 * The usual walk start for a service whose keys belong to an organization: a fresh database, the app
 * listening, one organization, and a key per scope set issued through the service's own tenancy admin.
 */
export function keyServiceWalk(opts: {
  label: string;
  create: (env: NodeJS.ProcessEnv) => Promise<INestApplication>;
  keyHeader: string;
  ownerHeader: string;
}): () => Promise<KeyScopeWalk> {
  return async () => {
    const db = await createTestDatabase(opts.label);
    const app = await opts.create(serviceEnv(db.url));
    const base = await listen(app);
    const admin = app.get(TenancyAdminService);
    await admin.createOwner('org-a', 'Organization A');
    // One key per scope set, reused: an organization holds a bounded number of live keys
    // (API_KEYS_MAX_LIVE_PER_OWNER), and a walk asks for the same sets again and again.
    const tokens = new Map<string, Promise<string>>();
    const tokenFor = (scopes: string[]) => {
      const id = [...scopes].sort().join(' ');
      let token = tokens.get(id);
      if (!token) {
        token = admin.issueKey('org-a', 'walk', { scopes }).then((k) => k.token);
        tokens.set(id, token);
      }
      return token;
    };
    return {
      base,
      headersFor: async (scopes) => ({
        [opts.keyHeader]: await tokenFor(scopes),
        [opts.ownerHeader]: 'org-a',
      }),
      close: async () => {
        await app.close();
        await db.drop();
      },
    };
  };
}
