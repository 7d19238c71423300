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

  /**
   * Read on every product-key call, so a revoke takes effect on the integration's next request, on
   * every replica (decision 0007; not cached, unlike keys). One primary-key lookup of one column, no
   * entity: the guard's only statement per call once the key is cached.
   */
  async permissionsOf(accountId: AccountId, productId: ProductId): Promise<Permission[]> {
    const rows = (await this.ds.query(
      'SELECT permission FROM integration_grants WHERE account_id = $1 AND product_id = $2 ORDER BY permission',
      [accountId, productId],
    )) as { permission: Permission }[];
    return rows.map((r) => r.permission);
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
