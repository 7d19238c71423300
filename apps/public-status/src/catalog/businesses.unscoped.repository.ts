// Unscoped: the businesses are the tenants themselves, addressed by their own id.
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { txManager, type Tx } from '@platform/persistence';
import { PublicStatusError, publicStatusError } from '../status/public-status.errors';
import { isUniqueViolation } from '../status/unique-violation';
import type { BusinessId } from '../tenancy/business-id';
import { Business } from './business.entity';

/** The owner table: the tenants themselves, so addressed by their own id (decision 0009). */
@Injectable()
export class BusinessesRepository {
  constructor(@InjectDataSource() private readonly ds: DataSource) {}

  private table(tx?: Tx) {
    return (tx ? txManager(tx) : this.ds.manager).getRepository(Business);
  }

  get(id: BusinessId, tx?: Tx): Promise<Business | null> {
    return this.table(tx).findOneBy({ id });
  }

  /** Every tenant: the rollup job walks them all. */
  async allIds(): Promise<BusinessId[]> {
    return (await this.table().find({ select: { id: true }, order: { id: 'ASC' } })).map((b) => b.id);
  }

  slugTaken(slug: string, except: BusinessId, tx?: Tx): Promise<boolean> {
    return this.table(tx)
      .createQueryBuilder('b')
      .where('b.slug = :slug AND b.id <> :except', { slug, except })
      .getExists();
  }

  async update(id: BusinessId, set: Partial<Pick<Business, 'name' | 'slug' | 'published'>>, tx?: Tx) {
    if (!Object.keys(set).length) return;
    try {
      await this.table(tx).update({ id }, set);
    } catch (err) {
      if (isUniqueViolation(err)) throw publicStatusError(PublicStatusError.SLUG_TAKEN, { slug: set.slug });
      throw err;
    }
  }
}
