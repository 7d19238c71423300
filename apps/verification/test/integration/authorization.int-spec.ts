import type { INestApplication } from '@nestjs/common';
import { auditRoutes } from '@platform/auth';
import { TenancyAdminService } from '@platform/tenancy';
import {
  createTestDatabase,
  exemptRoutes,
  listen,
  request,
  scopeDenialCases,
  serviceEnv,
} from '@platform/testing';
import { VerificationAppModule } from '../../src/app.module';
import { createVerificationApp } from '../../src/bootstrap';
import { VERIFICATION_SCOPES } from '../../src/tenancy/scopes';

type Env = { success: boolean; value: { reason?: string; missingScopes?: string[] } };

/** Deny by default, walked: every route, with a key lacking each scope it demands, is refused. */
describe('verification authorization walk (real PostgreSQL)', () => {
  const routes = auditRoutes(VerificationAppModule.register({}));
  const cases = scopeDenialCases(routes);
  let app: INestApplication;
  let base: string;
  let db: Awaited<ReturnType<typeof createTestDatabase>>;
  let admin: TenancyAdminService;

  beforeAll(async () => {
    db = await createTestDatabase('verification_authz');
    app = await createVerificationApp(serviceEnv(db.url), false);
    base = await listen(app);
    admin = app.get(TenancyAdminService);
    await admin.createOwner('bank-a', 'Bank A');
  });

  afterAll(async () => {
    await app?.close();
    await db?.drop();
  });

  it('covers every authenticated route, and no route is exempt', () => {
    const authenticated = routes.filter((r) => r.access === 'authenticated');
    expect(new Set(cases.map((c) => `${c.method} ${c.path}`)).size).toBe(authenticated.length);
    expect(exemptRoutes(routes)).toEqual([]);
  });

  it.each(cases.map((c) => [`${c.method} ${c.path} without ${c.withhold.join('+')}`, c] as const))(
    '%s: 403 SCOPE_MISSING; with the scope: not 403',
    async (_name, c) => {
      const call = async (scopes: string[]) => {
        const key = await admin.issueKey('bank-a', 'walk', { scopes });
        return request<Env>(`${base}${c.path}`, {
          method: c.method,
          headers: { 'X-API-Key': key.token, 'Service-Organization-Id': 'bank-a' },
          body: c.method === 'GET' ? undefined : {},
        });
      };
      const denied = await call(VERIFICATION_SCOPES.filter((s) => !c.withhold.includes(s)));
      expect([denied.status, denied.body.value.reason]).toEqual([403, 'SCOPE_MISSING']);
      expect(denied.body.value.missingScopes).toEqual(c.withhold);
      const allowed = await call([...VERIFICATION_SCOPES]);
      expect(allowed.status).not.toBe(403);
    },
  );
});
