import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { TenantScopedRepository, type Tx } from '@platform/persistence';
import type { OrganizationId } from '@platform/tenancy';
import { Customer } from './customer.entity';

/** Customers, always inside a TenantData transaction. */
@Injectable()
export class CustomersRepository extends TenantScopedRepository<Customer, 'organizationId'> {
  constructor(@InjectDataSource() ds: DataSource) {
    super(ds, Customer, 'organizationId');
  }

  /** The customer, or null when it is not this organization's (another's id reads as unknown). */
  byId(organizationId: OrganizationId, id: string, tx: Tx): Promise<Customer | null> {
    return this.findOne(organizationId, { id }, tx);
  }
}
