import { Module } from '@nestjs/common';
import { Transactions } from '@platform/persistence';
import { TenantConnections } from './tenant-connections';
import { TenantData } from './tenant-data';
import { TenantDatabasesRepository } from './tenant-databases.unscoped.repository';

/** Tenant data access (decision 0025): the app and the admin CLI both import it. */
@Module({
  providers: [Transactions, TenantDatabasesRepository, TenantConnections, TenantData],
  exports: [TenantConnections, TenantData],
})
export class TenantDataModule {}
