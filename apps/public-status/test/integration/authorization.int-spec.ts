import { auditRoutes } from '@platform/auth';
import { describeKeyScopeWalk, keyServiceWalk } from '@platform/testing';
import { PublicStatusAppModule } from '../../src/app.module';
import { createPublicStatusApp } from '../../src/bootstrap';
import { PUBLIC_STATUS_SCOPES } from '../../src/tenancy/scopes';

describeKeyScopeWalk('public-status authorization walk (real PostgreSQL)', {
  routes: auditRoutes(PublicStatusAppModule.register({})),
  allScopes: PUBLIC_STATUS_SCOPES,
  exempt: [],
  start: keyServiceWalk({
    label: 'ps_authz',
    create: (env) => createPublicStatusApp({ ...env, UPTIME_ROLLUP_INTERVAL_MS: '0' }, false),
    keyHeader: 'X-Api-Key',
    ownerHeader: 'Business-Id',
  }),
});
