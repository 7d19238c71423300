import { runAdminCli } from '@platform/persistence';
import { LENDING_ENTITIES } from './app.module';
import { LendingConfig } from './config/lending.config';
import { LENDING_MIGRATIONS } from './migrations';
import { PartnerKey } from './tenancy/partner-key.entity';
import { ensureOrganization, issuePartnerKey, revokePartnerKey } from './tenancy/tenancy.admin';

export const DEMO = { organizationId: 'demo-lender' };

void runAdminCli({
  service: 'lending',
  config: LendingConfig,
  entities: LENDING_ENTITIES,
  migrations: LENDING_MIGRATIONS,
  commands: {
    'create-organization': {
      usage: '<id> [name]',
      run: (ds, [id, name]) => ensureOrganization(ds, id, name ?? id),
    },
    'issue-key': {
      usage: '<organizationId> [label] [scope,scope...]   prints the key once',
      run: (ds, [org, label, scopes]) =>
        issuePartnerKey(ds, org, label ?? 'admin CLI', scopes ? scopes.split(',') : undefined),
    },
    'revoke-key': {
      usage: '<keyId>',
      run: async (ds, [keyId]) => ({ revoked: await revokePartnerKey(ds, keyId) }),
    },
    'seed-demo': {
      usage: '                  development only: demo organization and a fresh partner key',
      run: async (ds, _args, cfg) => {
        if (cfg.NODE_ENV === 'production') throw new Error('seed-demo refuses to run in production');
        await ensureOrganization(ds, DEMO.organizationId, 'Demo lender');
        await ds
          .getRepository(PartnerKey)
          .update({ organizationId: DEMO.organizationId, label: 'demo seed' }, { revokedAt: new Date() });
        const key = await issuePartnerKey(ds, DEMO.organizationId, 'demo seed');
        return { ...DEMO, apiKey: key.token, keyId: key.keyId, scopes: key.scopes };
      },
    },
  },
});
