import { OutboxFillfactor1763740000000 } from './1763740000000-outbox-fillfactor';
import { InitLending1763702000000 } from './1763702000000-init-lending';
import { SharedKeyTable1763720000000 } from './1763720000000-shared-key-table';
import { TenantIsolation1763850000000 } from './1763850000000-tenant-isolation';
import { CustomersCore1763855000000 } from './1763855000000-customers-core';

export const LENDING_MIGRATIONS = [
  InitLending1763702000000,
  SharedKeyTable1763720000000,
  OutboxFillfactor1763740000000,
  TenantIsolation1763850000000,
  CustomersCore1763855000000,
];
