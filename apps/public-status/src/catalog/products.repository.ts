import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { TenantScopedRepository, type Tx } from '@platform/persistence';
import { PublicStatusError, publicStatusError } from '../status/public-status.errors';
import { isUniqueViolation } from '../status/unique-violation';
import type { BusinessId } from '../tenancy/business-id';
import { StatusProduct } from './status-product.entity';

@Injectable()
export class ProductsRepository extends TenantScopedRepository<StatusProduct, 'businessId'> {
  constructor(@InjectDataSource() ds: DataSource) {
    super(ds, StatusProduct, 'businessId');
  }

  list(business: BusinessId): Promise<StatusProduct[]> {
    return this.find(business, {}, { sortOrder: 'ASC', slug: 'ASC' });
  }

  byId(business: BusinessId, id: string, tx?: Tx): Promise<StatusProduct | null> {
    return this.findOne(business, { id }, tx);
  }

  bySlug(business: BusinessId, slug: string, tx?: Tx): Promise<StatusProduct | null> {
    return this.findOne(business, { slug }, tx);
  }

  async create(
    business: BusinessId,
    row: Pick<StatusProduct, 'slug' | 'name' | 'published' | 'sortOrder'>,
    tx: Tx,
  ): Promise<void> {
    try {
      await this.insert(business, [row], tx);
    } catch (err) {
      // Two PUTs of one new slug at once: the loser's transaction is aborted; it may retry.
      if (isUniqueViolation(err)) throw publicStatusError(PublicStatusError.SLUG_TAKEN, { slug: row.slug });
      throw err;
    }
  }

  async change(
    business: BusinessId,
    id: string,
    set: Partial<Pick<StatusProduct, 'name' | 'published' | 'sortOrder'>>,
    tx: Tx,
  ): Promise<void> {
    if (Object.keys(set).length) await this.update(business, { id }, set, tx);
  }
}
