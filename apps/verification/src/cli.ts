import { runAdminCli } from '@platform/persistence';
import { TenancyAdminService, tenancyAdminCommands } from '@platform/tenancy';
import { VerificationConfig } from './config/verification.config';
import { VERIFICATION_DATABASE } from './database';
import { VerificationTenancy } from './tenancy/verification.tenancy';

export const DEMO = { organizationId: 'demo-verifier' };

void runAdminCli({
  service: 'verification',
  config: VerificationConfig,
  database: VERIFICATION_DATABASE,
  imports: [VerificationTenancy],
  commands: {
    ...tenancyAdminCommands('organization'),
    'seed-demo': {
      usage: '                  development only: demo organization and a fresh API key',
      run: async (app, _args, cfg) => {
        if (cfg.NODE_ENV === 'production') throw new Error('seed-demo refuses to run in production');
        const admin = app.get(TenancyAdminService);
        await admin.createOwner(DEMO.organizationId, 'Demo verifier');
        await admin.revokeKeysLabelled(DEMO.organizationId, 'demo seed');
        const key = await admin.issueKey(DEMO.organizationId, 'demo seed');
        return { ...DEMO, apiKey: key.token, keyId: key.keyId, scopes: key.scopes };
      },
    },
  },
});
