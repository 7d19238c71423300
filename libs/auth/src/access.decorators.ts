import { SetMetadata, applyDecorators } from '@nestjs/common';

export const IS_PUBLIC = 'platform:is-public';
export const AUTH_SCHEMES = 'platform:auth-schemes';
export const ACCESS_RULE = 'platform:access-rule';

/**
 * What an authenticated route demands beyond a valid credential. Every authenticated route declares
 * one; a route without is refused at run time and fails its app's route audit.
 */
export type AccessRule =
  /** The caller holds every one of these scopes. */
  | { kind: 'all-of'; scopes: readonly string[] }
  /** The caller holds at least one (e.g. Read or FreeBusy, the handler redacting for the latter). */
  | { kind: 'any-of'; scopes: readonly string[] }
  /** Any authenticated caller of the scheme; `reason` says why no scope applies. */
  | { kind: 'exempt'; reason: string };

/** The route is reachable without credentials (health, public status, JWKS, token exchange). */
export const Public = () => SetMetadata(IS_PUBLIC, true);

/**
 * The route requires one of these credential schemes (e.g. `product-key`, `platform-session`). The app's
 * guard decides what each scheme means; a route with neither this nor `@Public()` is refused.
 * Apps use the typed form from `defineAccess`, so a misspelt scheme does not compile.
 */
export const Authenticated = (...schemes: [string, ...string[]]) =>
  applyDecorators(SetMetadata(AUTH_SCHEMES, schemes));

/**
 * An app's access vocabulary: its credential schemes and scopes as string unions, and decorators that
 * accept only those. `RequireScopes('applications:raed')` does not compile.
 */
export function defineAccess<const Scheme extends string, const Scope extends string>(spec: {
  schemes: readonly Scheme[];
  scopes: readonly Scope[];
}) {
  const known = new Set<string>(spec.scopes);
  const rule = (r: AccessRule) => {
    if (r.kind !== 'exempt') {
      const unknown = r.scopes.filter((s) => !known.has(s));
      // Belt and braces for scopes built at run time; literals are checked by the compiler.
      if (unknown.length) throw new Error(`unknown scopes: ${unknown.join(', ')}`);
    }
    return SetMetadata(ACCESS_RULE, r);
  };
  return {
    schemes: spec.schemes,
    scopes: spec.scopes,
    Authenticated: (...schemes: [Scheme, ...Scheme[]]) => Authenticated(...schemes),
    /** The caller must hold every listed scope. */
    RequireScopes: (...scopes: [Scope, ...Scope[]]) => rule({ kind: 'all-of', scopes }),
    /** The caller must hold at least one of the listed scopes. */
    RequireAnyScope: (...scopes: [Scope, ...Scope[]]) => rule({ kind: 'any-of', scopes }),
    /**
     * An explicit, named exemption: any authenticated caller may call the route, because the handler
     * itself limits what it returns to the caller's own data. The reason is shown by the route audit.
     */
    NoScopeRequired: (reason: string) => {
      if (!reason.trim()) throw new Error('an exemption needs a reason');
      return rule({ kind: 'exempt', reason });
    },
  };
}

/** Whether `granted` satisfies a rule, and which scopes are missing when it does not. */
export function missingScopes(rule: AccessRule, granted: readonly string[]): string[] {
  if (rule.kind === 'exempt') return [];
  const missing = rule.scopes.filter((s) => !granted.includes(s));
  if (rule.kind === 'all-of') return missing;
  return missing.length < rule.scopes.length ? [] : missing;
}
