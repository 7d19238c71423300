import { runAdminCli } from '@platform/persistence';
import { TenancyAdminService, seedDemoTenant, tenancyAdminCommands } from '@platform/tenancy';
import { CALENDAR_ACCESS_PROVIDERS } from './app.module';
import { CalendarConfig } from './config/calendar.config';
import { CALENDAR_DATABASE } from './database';
import { CALDAV_DEMO_PROVIDERS, seedCaldavDemo } from './demo/caldav-demo';
import { GrantsService } from './grants/grants.service';
import { AccountsService } from './tenancy/accounts.service';
import { CalendarTenancy } from './tenancy/calendar.tenancy';
import { asAccountId } from './tenancy/tenant-ids';

export const DEMO = { accountId: 'demo', productId: 'demo-crm' };

void runAdminCli({
  service: 'calendar',
  config: CalendarConfig,
  database: CALENDAR_DATABASE,
  imports: [CalendarTenancy],
  providers: [...CALENDAR_ACCESS_PROVIDERS, ...CALDAV_DEMO_PROVIDERS],
  commands: {
    'create-account': {
      usage: '<id> [name]',
      run: (app, [id, name]) => app.get(AccountsService).ensure(asAccountId(id), name ?? id),
    },
    ...tenancyAdminCommands('product', { keysHaveScopes: false }),
    grant: {
      usage: '<accountId> <productId> <Read,Push,FreeBusy,Share>   as the account owner would',
      run: async (app, [account, product, perms]) => ({
        permissions: (
          await app
            .get(GrantsService)
            .grant(asAccountId(account), product, (perms ?? '').split(','), 'admin-cli')
        ).map((g) => g.permission),
      }),
    },
    'seed-demo': {
      usage: '                  development only: demo account, product and a fresh key',
      run: async (app, _args, cfg) => {
        if (cfg.NODE_ENV === 'production') throw new Error('seed-demo refuses to run in production');
        const accountId = asAccountId(DEMO.accountId);
        await app.get(AccountsService).ensure(accountId, 'Demo company');
        const { apiKey, keyId } = await seedDemoTenant(app.get(TenancyAdminService), 'product', {
          id: DEMO.productId,
          name: 'Demo CRM',
        });
        const grants = await app
          .get(GrantsService)
          .grant(accountId, DEMO.productId, ['Read', 'Push', 'FreeBusy', 'Share'], 'demo-person');
        return { ...DEMO, apiKey, keyId, permissions: grants.map((g) => g.permission) };
      },
    },
    // Apart from seed-demo, whose output and outbox other suites count on: npm start runs both.
    'seed-demo-caldav': {
      usage:
        '           development only, after seed-demo: a product event, app password and ICS feed of demo-person',
      run: async (app, _args, cfg) => {
        if (cfg.NODE_ENV === 'production') throw new Error('seed-demo-caldav refuses to run in production');
        return seedCaldavDemo(app, DEMO);
      },
    },
  },
});
