import { runAdminCli } from '@platform/persistence';
import { VERIFICATION_ENTITIES } from './app.module';
import { VerificationConfig } from './config/verification.config';
import { VERIFICATION_MIGRATIONS } from './migrations';
import { ApiKey } from './tenancy/api-key.entity';
import { ensureOrganization, issueVerificationKey, revokeVerificationKey } from './tenancy/tenancy.admin';

export const DEMO = { organizationId: 'demo-verifier' };

void runAdminCli({
  service: 'verification',
  config: VerificationConfig,
  entities: VERIFICATION_ENTITIES,
  migrations: VERIFICATION_MIGRATIONS,
  commands: {
    'create-organization': {
      usage: '<id> [name]',
      run: (ds, [id, name]) => ensureOrganization(ds, id, name ?? id),
    },
    'issue-key': {
      usage: '<organizationId> [label] [scope,scope...]   prints the key once',
      run: (ds, [org, label, scopes]) =>
        issueVerificationKey(ds, org, label ?? 'admin CLI', scopes ? scopes.split(',') : undefined),
    },
    'revoke-key': {
      usage: '<keyId>',
      run: async (ds, [keyId]) => ({ revoked: await revokeVerificationKey(ds, keyId) }),
    },
    'seed-demo': {
      usage: '                  development only: demo organization and a fresh API key',
      run: async (ds, _args, cfg) => {
        if (cfg.NODE_ENV === 'production') throw new Error('seed-demo refuses to run in production');
        await ensureOrganization(ds, DEMO.organizationId, 'Demo verifier');
        await ds
          .getRepository(ApiKey)
          .update({ organizationId: DEMO.organizationId, label: 'demo seed' }, { revokedAt: new Date() });
        const key = await issueVerificationKey(ds, DEMO.organizationId, 'demo seed');
        return { ...DEMO, apiKey: key.token, keyId: key.keyId, scopes: key.scopes };
      },
    },
  },
});
