import { auditRoutes } from '@platform/auth';
import { describeKeyScopeWalk, keyServiceWalk } from '@platform/testing';
import { VerificationAppModule } from '../../src/app.module';
import { createVerificationApp } from '../../src/bootstrap';
import { VERIFICATION_SCOPES } from '../../src/tenancy/scopes';

describeKeyScopeWalk('verification authorization walk (real PostgreSQL)', {
  routes: auditRoutes(VerificationAppModule.register({})),
  allScopes: VERIFICATION_SCOPES,
  exempt: [],
  start: keyServiceWalk({
    label: 'verification_authz',
    create: (env) => createVerificationApp(env, false),
    keyHeader: 'X-API-Key',
    ownerHeader: 'Service-Organization-Id',
  }),
});
