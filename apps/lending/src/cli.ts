import { runAdminCli } from '@platform/persistence';
import { TenancyAdminService, tenancyAdminCommands } from '@platform/tenancy';
import { LendingConfig } from './config/lending.config';
import { LENDING_DATABASE } from './database';
import { LendingTenancy } from './tenancy/lending.tenancy';

export const DEMO = { organizationId: 'demo-lender' };

void runAdminCli({
  service: 'lending',
  config: LendingConfig,
  database: LENDING_DATABASE,
  imports: [LendingTenancy],
  commands: {
    ...tenancyAdminCommands('organization'),
    'seed-demo': {
      usage: '                  development only: demo organization and a fresh partner key',
      run: async (app, _args, cfg) => {
        if (cfg.NODE_ENV === 'production') throw new Error('seed-demo refuses to run in production');
        const admin = app.get(TenancyAdminService);
        await admin.createOwner(DEMO.organizationId, 'Demo lender');
        // A re-seed replaces the demo key: the old token was shown once and cannot be recovered.
        await admin.revokeKeysLabelled(DEMO.organizationId, 'demo seed');
        const key = await admin.issueKey(DEMO.organizationId, 'demo seed');
        return { ...DEMO, apiKey: key.token, keyId: key.keyId, scopes: key.scopes };
      },
    },
  },
});
