import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { TenantScopedRepository, type Tx } from '@platform/persistence';
import type { OrganizationId } from '@platform/tenancy';
import { CustomerIdentifier } from './customer-identifier.entity';
import type { IdentifierType } from './identifier-rules';

export type IdentifierFields = Omit<CustomerIdentifier, 'id' | 'organizationId' | 'createdAt'>;

/** Customers' identifiers, always inside a TenantData transaction. */
@Injectable()
export class CustomerIdentifiersRepository extends TenantScopedRepository<
  CustomerIdentifier,
  'organizationId'
> {
  constructor(@InjectDataSource() ds: DataSource) {
    super(ds, CustomerIdentifier, 'organizationId');
  }

  /**
   * Adds the identifier unless its type, country and value are already registered in the organization
   * (ON CONFLICT DO NOTHING, so the transaction stays usable); null when they are.
   */
  async add(
    organizationId: OrganizationId,
    fields: IdentifierFields,
    tx: Tx,
  ): Promise<CustomerIdentifier | null> {
    const inserted = await this.insertIfAbsent(organizationId, [fields], tx);
    if (!inserted) return null;
    return this.holder(organizationId, fields.type, fields.country, fields.value, tx);
  }

  holder(
    organizationId: OrganizationId,
    type: IdentifierType,
    country: string,
    value: string,
    tx: Tx,
  ): Promise<CustomerIdentifier | null> {
    return this.findOne(organizationId, { type, country, value }, tx);
  }

  byId(organizationId: OrganizationId, id: string, tx: Tx): Promise<CustomerIdentifier | null> {
    return this.findOne(organizationId, { id }, tx);
  }

  ofCustomer(organizationId: OrganizationId, customerId: string, tx: Tx): Promise<CustomerIdentifier[]> {
    return this.find(organizationId, { customerId }, { createdAt: 'ASC', id: 'ASC' }, tx);
  }

  async remove(organizationId: OrganizationId, id: string, tx: Tx): Promise<boolean> {
    return (await this.delete(organizationId, { id }, tx)) > 0;
  }
}
