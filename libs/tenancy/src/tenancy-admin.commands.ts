import type { AdminCommand } from '@platform/persistence';
import { TenancyAdminService } from './tenancy-admin.service';

/** The development seed's tenant: created if missing, with a fresh key replacing the previous seed's. */
export async function seedDemoTenant(
  admin: TenancyAdminService,
  noun: string,
  demo: { id: string; name: string },
): Promise<Record<string, unknown>> {
  await admin.createOwner(demo.id, demo.name);
  // A re-seed replaces the demo key: the old token was shown once and cannot be recovered.
  await admin.revokeKeysLabelled(demo.id, 'demo seed');
  const key = await admin.issueKey(demo.id, 'demo seed');
  return { [`${noun}Id`]: demo.id, apiKey: key.token, keyId: key.keyId, scopes: key.scopes };
}

/**
 * The admin commands every service with keys shares: create a tenant, issue, reissue, revoke and list
 * keys, and with `demo` the development seed. `noun` is what the service calls its key owner
 * (organization, product).
 */
export function tenancyAdminCommands(
  noun: string,
  opts: { demo?: { id: string; name: string }; keysHaveScopes?: boolean } = {},
): Record<string, AdminCommand<{ NODE_ENV: string }>> {
  const admin = (app: Parameters<AdminCommand['run']>[0]) => app.get(TenancyAdminService);
  const { demo } = opts;
  return {
    ...(demo
      ? {
          'seed-demo': {
            usage: `                  development only: demo ${noun} and a fresh key`,
            run: async (app, _args, cfg) => {
              if (cfg.NODE_ENV === 'production') throw new Error('seed-demo refuses to run in production');
              return seedDemoTenant(admin(app), noun, demo);
            },
          } satisfies AdminCommand<{ NODE_ENV: string }>,
        }
      : {}),
    [`create-${noun}`]: {
      usage: '<id> [name]',
      run: (app, [id, name]) => admin(app).createOwner(id, name ?? id),
    },
    'issue-key': {
      usage: `<${noun}Id> [label]${opts.keysHaveScopes === false ? '' : ' [scope,scope...]'} [--default]   prints the key once`,
      run: (app, args) => {
        const [owner, label, scopes] = args.filter((a) => a !== '--default');
        return admin(app).issueKey(owner, label ?? 'admin CLI', {
          scopes: scopes ? scopes.split(',') : undefined,
          isDefault: args.includes('--default'),
        });
      },
    },
    'reissue-key': {
      usage: '<keyId> [overlapSeconds=86400]   new key now, the old one stops after the overlap',
      run: (app, [keyId, overlap]) =>
        admin(app).reissueKey(keyId, overlap === undefined ? 86400 : Number(overlap)),
    },
    'revoke-key': {
      usage: '<keyId>   stops the key (running replicas within API_KEY_CACHE_TTL_MS)',
      run: async (app, [keyId]) => ({ revoked: await admin(app).revokeKey(keyId) }),
    },
    'list-keys': {
      usage: `<${noun}Id>   key ids, labels, scopes and state (never secrets)`,
      run: (app, [owner]) => admin(app).listKeys(owner),
    },
  };
}
