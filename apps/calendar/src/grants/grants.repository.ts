import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, In } from 'typeorm';
import { TenantScopedRepository } from '@platform/persistence';
import { TtlCache } from '@platform/tenancy';
import { CalendarConfig } from '../config/calendar.config';
import type { AccountId, ProductId } from '../tenancy/tenant-ids';
import { IntegrationGrant } from './integration-grant.entity';
import type { Permission } from './permissions';

/** What the account owner granted each integration on the account. */
@Injectable()
export class GrantsRepository extends TenantScopedRepository<IntegrationGrant, 'accountId'> {
  /** account + product -> permissions, for as long as a key is cached (API_KEY_CACHE_TTL_MS). */
  private readonly cache: TtlCache<Permission[]>;

  constructor(@InjectDataSource() ds: DataSource, cfg: CalendarConfig) {
    super(ds, IntegrationGrant, 'accountId');
    this.cache = new TtlCache({ ttlMs: cfg.API_KEY_CACHE_TTL_MS, maxEntries: cfg.API_KEY_CACHE_MAX_ENTRIES });
  }

  /**
   * Asked on every product-key call; answered from the cache with the same bound as the key itself
   * (decision 0015 amends 0007): a grant revoked through this replica ends at once, one revoked
   * through another replica or the admin CLI within API_KEY_CACHE_TTL_MS. A miss is one primary-key
   * lookup of one column, no entity.
   */
  async permissionsOf(accountId: AccountId, productId: ProductId): Promise<Permission[]> {
    const cacheKey = `${accountId}\u0000${productId}`;
    const cached = this.cache.get(cacheKey);
    if (cached) return cached;
    const rows = await this.sql<{ permission: Permission }>(
      accountId,
      'SELECT permission FROM integration_grants WHERE account_id = $1 AND product_id = $2 ORDER BY permission',
      [productId],
    );
    const permissions = rows.map((r) => r.permission);
    this.cache.set(cacheKey, permissions);
    return permissions;
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
    this.cache.forget(`${accountId}\u0000${productId}`);
  }

  async remove(accountId: AccountId, productId: ProductId, permissions: Permission[]): Promise<void> {
    await this.delete(accountId, { productId, permission: In(permissions) });
    this.cache.forget(`${accountId}\u0000${productId}`);
  }
}
