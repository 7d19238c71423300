import { runAdminCli } from '@platform/persistence';
import { tenancyAdminCommands } from '@platform/tenancy';
import { LendingConfig } from './config/lending.config';
import { LENDING_DATABASE } from './database';
import { LendingTenancy } from './tenancy/lending.tenancy';

void runAdminCli({
  service: 'lending',
  config: LendingConfig,
  database: LENDING_DATABASE,
  imports: [LendingTenancy],
  commands: tenancyAdminCommands('organization', { demo: { id: 'demo-lender', name: 'Demo lender' } }),
});
