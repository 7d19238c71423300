import { runAdminCli } from '@platform/persistence';
import { tenancyAdminCommands } from '@platform/tenancy';
import { PublicStatusConfig } from './config/public-status.config';
import { PUBLIC_STATUS_DATABASE } from './database';
import { seedDemo } from './demo-seed';
import { PUBLIC_STATUS_PROVIDERS } from './providers';
import { ChainsService } from './status/chains.service';
import { asBusinessId } from './tenancy/business-id';
import { PublicStatusTenancy } from './tenancy/public-status.tenancy';
import { dayKey, DAY_MS } from './uptime/uptime-math';
import { UptimeService } from './uptime/uptime.service';

void runAdminCli({
  service: 'public-status',
  config: PublicStatusConfig,
  database: PUBLIC_STATUS_DATABASE,
  imports: [PublicStatusTenancy],
  providers: PUBLIC_STATUS_PROVIDERS,
  commands: {
    ...tenancyAdminCommands('business'),
    'seed-demo': {
      usage: '                  development only: business platform, its products and a fresh key',
      run: async (app, _args, cfg) => {
        if (cfg.NODE_ENV === 'production') throw new Error('seed-demo refuses to run in production');
        return seedDemo(app);
      },
    },
    'rollup-uptime': {
      usage: '[fromDay] [toDay]   daily uptime rollups (default: the last 2 complete days); idempotent',
      run: (app, [from, to]) =>
        app
          .get(UptimeService)
          .rollup(from ?? dayKey(Date.now() - 2 * DAY_MS), to ?? dayKey(Date.now() - DAY_MS)),
    },
    'verify-chains': {
      usage: '<businessId>   recompute the hash chains of incident updates and daily uptime',
      run: (app, [business]) => app.get(ChainsService).verify(asBusinessId(business)),
    },
  },
});
