import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { TenantScopedRepository, type Tx } from '@platform/persistence';
import type { OrganizationId } from '@platform/tenancy';
import { CustomerBankAccount } from './customer-bank-account.entity';

export type BankAccountFields = Omit<CustomerBankAccount, 'id' | 'organizationId' | 'createdAt'>;

/** Customers' bank accounts, inside a TenantData transaction. */
@Injectable()
export class CustomerBankAccountsRepository extends TenantScopedRepository<
  CustomerBankAccount,
  'organizationId'
> {
  constructor(@InjectDataSource() ds: DataSource) {
    super(ds, CustomerBankAccount, 'organizationId');
  }

  /** Null when the customer already has this account (ON CONFLICT DO NOTHING keeps the transaction usable). */
  async add(
    organizationId: OrganizationId,
    fields: BankAccountFields,
    tx: Tx,
  ): Promise<CustomerBankAccount | null> {
    if (!(await this.insertIfAbsent(organizationId, [fields], tx))) return null;
    return this.findOne(organizationId, { customerId: fields.customerId, accountKey: fields.accountKey }, tx);
  }

  /** Clears the customer's primary flag, ahead of making another account primary. */
  async clearPrimary(organizationId: OrganizationId, customerId: string, tx: Tx): Promise<void> {
    await this.update(organizationId, { customerId, isPrimary: true }, { isPrimary: false }, tx);
  }

  async setPrimary(organizationId: OrganizationId, id: string, tx: Tx): Promise<void> {
    await this.update(organizationId, { id }, { isPrimary: true }, tx);
  }

  byId(organizationId: OrganizationId, id: string, tx: Tx): Promise<CustomerBankAccount | null> {
    return this.findOne(organizationId, { id }, tx);
  }

  /** The primary account first, then oldest first. */
  ofCustomer(organizationId: OrganizationId, customerId: string, tx: Tx): Promise<CustomerBankAccount[]> {
    return this.find(organizationId, { customerId }, { isPrimary: 'DESC', createdAt: 'ASC', id: 'ASC' }, tx);
  }

  async remove(organizationId: OrganizationId, id: string, tx: Tx): Promise<boolean> {
    return (await this.delete(organizationId, { id }, tx)) > 0;
  }
}
