import type { AdminCommand } from '@platform/persistence';
import { TenancyAdminService } from './tenancy-admin.service';

/**
 * The admin commands every service with keys shares: create a tenant, issue, reissue, revoke and list
 * keys. `noun` is what the service calls its key owner (organization, product).
 */
export function tenancyAdminCommands(noun: string): Record<string, AdminCommand<unknown>> {
  const admin = (app: Parameters<AdminCommand['run']>[0]) => app.get(TenancyAdminService);
  return {
    [`create-${noun}`]: {
      usage: '<id> [name]',
      run: (app, [id, name]) => admin(app).createOwner(id, name ?? id),
    },
    'issue-key': {
      usage: `<${noun}Id> [label] [scope,scope...] [--default]   prints the key once`,
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
      usage: '<keyId>   stops the key at once',
      run: async (app, [keyId]) => ({ revoked: await admin(app).revokeKey(keyId) }),
    },
    'list-keys': {
      usage: `<${noun}Id>   key ids, labels, scopes and state (never secrets)`,
      run: (app, [owner]) => admin(app).listKeys(owner),
    },
  };
}
