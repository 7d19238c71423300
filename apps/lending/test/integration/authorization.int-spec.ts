import { auditRoutes } from '@platform/auth';
import { describeKeyScopeWalk, keyServiceWalk } from '@platform/testing';
import { LendingAppModule } from '../../src/app.module';
import { createLendingApp } from '../../src/bootstrap';
import { LENDING_SCOPES } from '../../src/tenancy/scopes';

describeKeyScopeWalk('lending authorization walk (real PostgreSQL)', {
  routes: auditRoutes(LendingAppModule.register({})),
  allScopes: LENDING_SCOPES,
  exempt: [],
  start: keyServiceWalk({
    label: 'lending_authz',
    create: (env) => createLendingApp(env, false),
    keyHeader: 'X-Api-Key',
    ownerHeader: 'Organization-Id',
  }),
});
