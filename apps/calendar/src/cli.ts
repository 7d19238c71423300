import { runAdminCli } from '@platform/persistence';
import { CALENDAR_ENTITIES } from './app.module';
import { CalendarConfig } from './config/calendar.config';
import { CALENDAR_MIGRATIONS } from './migrations';
import { ProductKey } from './tenancy/product-key.entity';
import type { Permission } from './grants/permissions';
import {
  ensureAccount,
  ensureProduct,
  grantPermissions,
  issueProductKey,
  revokeProductKey,
} from './tenancy/tenancy.admin';

export const DEMO = { accountId: 'demo', productId: 'demo-crm' };

void runAdminCli({
  service: 'calendar',
  config: CalendarConfig,
  entities: CALENDAR_ENTITIES,
  migrations: CALENDAR_MIGRATIONS,
  commands: {
    'create-account': { usage: '<id> [name]', run: (ds, [id, name]) => ensureAccount(ds, id, name ?? id) },
    'create-product': { usage: '<id> [name]', run: (ds, [id, name]) => ensureProduct(ds, id, name ?? id) },
    'issue-key': {
      usage: '<productId> [label] [--default]   prints the key once; the default key is not request-logged',
      run: (ds, args) => {
        const isDefault = args.includes('--default');
        const [productId, label] = args.filter((a) => a !== '--default');
        return issueProductKey(ds, productId, label ?? 'admin CLI', isDefault);
      },
    },
    'revoke-key': {
      usage: '<keyId>',
      run: async (ds, [keyId]) => ({ revoked: await revokeProductKey(ds, keyId) }),
    },
    grant: {
      usage: '<accountId> <productId> <Read,Push,FreeBusy,Share>   as the account owner would',
      run: async (ds, [account, product, perms]) => ({
        permissions: await grantPermissions(ds, account, product, (perms ?? '').split(',') as Permission[]),
      }),
    },
    'seed-demo': {
      usage: '                  development only: demo account, product and a fresh key',
      run: async (ds, _args, cfg) => {
        if (cfg.NODE_ENV === 'production') throw new Error('seed-demo refuses to run in production');
        await ensureAccount(ds, DEMO.accountId, 'Demo company');
        await ensureProduct(ds, DEMO.productId, 'Demo CRM');
        // A re-seed replaces the demo key: the old token was shown once and cannot be recovered.
        await ds
          .getRepository(ProductKey)
          .update({ productId: DEMO.productId, label: 'demo seed' }, { revokedAt: new Date() });
        const key = await issueProductKey(ds, DEMO.productId, 'demo seed');
        const permissions = await grantPermissions(
          ds,
          DEMO.accountId,
          DEMO.productId,
          ['Read', 'Push', 'FreeBusy', 'Share'],
          'demo-person',
        );
        return { ...DEMO, apiKey: key.token, keyId: key.keyId, permissions };
      },
    },
  },
});
