import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, In } from 'typeorm';
import { TenantScopedRepository } from '@platform/persistence';
import type { AccountId, ProductId } from '../tenancy/tenant-ids';
import { IntegrationGrant } from './integration-grant.entity';
import type { Permission } from './permissions';

/** What the account owner granted each integration on the account. */
@Injectable()
export class GrantsRepository extends TenantScopedRepository<IntegrationGrant, 'accountId'> {
  constructor(@InjectDataSource() ds: DataSource) {
    super(ds, IntegrationGrant, 'accountId');
  }

  /** Read on every product-key call, so a revoke takes effect on the integration's next request. */
  async permissionsOf(accountId: AccountId, productId: ProductId): Promise<Permission[]> {
    return (await this.list(accountId, productId)).map((g) => g.permission);
  }

  list(accountId: AccountId, productId?: ProductId): Promise<IntegrationGrant[]> {
    return this.find(accountId, productId ? { productId } : {}, { productId: 'ASC', permission: 'ASC' });
  }

  /** Insert-if-absent: granting again keeps who granted it first and when. */
  async add(
    accountId: AccountId,
    productId: ProductId,
    permissions: Permission[],
    grantedBy: string,
  ): Promise<void> {
    await this.insertIfAbsent(
      accountId,
      permissions.map((permission) => ({ productId, permission, grantedBy })),
    );
  }

  async remove(accountId: AccountId, productId: ProductId, permissions: Permission[]): Promise<void> {
    await this.delete(accountId, { productId, permission: In(permissions) });
  }
}
