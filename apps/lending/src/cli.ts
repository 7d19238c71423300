import { runAdminCli } from '@platform/persistence';
import { tenancyAdminCommands } from '@platform/tenancy';
import { LendingConfig } from './config/lending.config';
import { LENDING_DATABASE } from './database';
import { redriveDeadEventsCommand } from './loans/events/outbox-redrive.command';
import { OutboxRedriveRepository } from './loans/events/outbox-redrive.unscoped.repository';
import { LendingTenancy } from './tenancy/lending.tenancy';
import { TenantConnections } from './tenancy/tenant-connections';
import { TenantDataModule } from './tenancy/tenant-data.module';

void runAdminCli({
  service: 'lending',
  config: LendingConfig,
  database: LENDING_DATABASE,
  imports: [LendingTenancy, { module: TenantDataModule }],
  providers: [OutboxRedriveRepository],
  commands: {
    ...tenancyAdminCommands('organization', { demo: { id: 'demo-lender', name: 'Demo lender' } }),
    'add-tenant-database': {
      usage:
        '<organizationId> <postgres://url>   database-per-tenant: migrate it, copy the organization, register it (sealed)',
      run: async (app, [organizationId, url]) => {
        if (!organizationId || !url)
          throw new Error('usage: add-tenant-database <organizationId> <postgres://url>');
        return { organizationId, applied: await app.get(TenantConnections).register(organizationId, url) };
      },
    },
    'redrive-dead-events': redriveDeadEventsCommand,
  },
});
