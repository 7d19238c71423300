import { auditRoutes, type AuditedRoute } from '@platform/auth';
import { describeKeyScopeWalk, keyServiceWalk, type KeyScopeWalk } from '@platform/testing';
import { VerificationAppModule } from '../../src/app.module';
import { createVerificationApp } from '../../src/bootstrap';
import { VERIFICATION_SCOPES } from '../../src/tenancy/scopes';

const routes = auditRoutes(VerificationAppModule.register({}));
/** The routes as one scheme sees them: a route not taking that scheme has no case (and fails coverage). */
const onlyScheme = (scheme: string): AuditedRoute[] =>
  routes.map((r) => ({ ...r, schemes: r.schemes.filter((s) => s === scheme) }));

const keyWalk = keyServiceWalk({
  label: 'verification_authz',
  create: (env) => createVerificationApp(env, false),
  keyHeader: 'X-API-Key',
  ownerHeader: 'Service-Organization-Id',
});

describeKeyScopeWalk('verification authorization walk, API key (real PostgreSQL)', {
  routes: onlyScheme('api-key'),
  allScopes: VERIFICATION_SCOPES,
  exempt: [],
  start: keyWalk,
});

/**
 * The same walk with bearer tokens: every route taking the key takes its token, and a token lacking a
 * scope is refused exactly like the key. Each call's token is exchanged for a fresh key holding `scopes`.
 */
describeKeyScopeWalk('verification authorization walk, OAuth bearer token (real PostgreSQL)', {
  routes: onlyScheme('oauth'),
  allScopes: VERIFICATION_SCOPES,
  exempt: [],
  start: async (): Promise<KeyScopeWalk> => {
    const walk = await keyWalk();
    return {
      ...walk,
      headersFor: async (scopes) => {
        const key = await walk.headersFor(scopes);
        const res = await fetch(`${walk.base}/api/v1/oauth/token`, {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams({
            grant_type: 'client_credentials',
            client_id: key['Service-Organization-Id'],
            client_secret: key['X-API-Key'],
          }).toString(),
        });
        const body = (await res.json()) as { access_token?: string; error?: string };
        if (!body.access_token) throw new Error(`token exchange failed: ${JSON.stringify(body)}`);
        return { Authorization: `Bearer ${body.access_token}` };
      },
    };
  },
});
