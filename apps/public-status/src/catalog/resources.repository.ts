import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, In } from 'typeorm';
import { TenantScopedRepository, type Tx } from '@platform/persistence';
import type { ComponentState, StateSource } from '../status/states';
import { PublicStatusError, publicStatusError } from '../status/public-status.errors';
import { isUniqueViolation } from '../status/unique-violation';
import type { BusinessId } from '../tenancy/business-id';
import { StatusResource } from './status-resource.entity';

@Injectable()
export class ResourcesRepository extends TenantScopedRepository<StatusResource, 'businessId'> {
  constructor(@InjectDataSource() ds: DataSource) {
    super(ds, StatusResource, 'businessId');
  }

  list(business: BusinessId): Promise<StatusResource[]> {
    return this.find(business, {}, { sortOrder: 'ASC', slug: 'ASC' });
  }

  byIds(business: BusinessId, ids: string[], tx?: Tx): Promise<StatusResource[]> {
    return ids.length ? this.find(business, { id: In(ids) }, undefined, tx) : Promise.resolve([]);
  }

  bySlug(business: BusinessId, productId: string, slug: string, tx?: Tx): Promise<StatusResource | null> {
    return this.findOne(business, { productId, slug }, tx);
  }

  /** The resource, locked until the transaction ends: state changes of one resource queue up. */
  lock(business: BusinessId, id: string, tx: Tx): Promise<StatusResource | null> {
    return this.select(
      business,
      'r',
      (q) => q.andWhere('r.id = :id', { id }).setLock('pessimistic_write').getOne(),
      tx,
    );
  }

  async create(
    business: BusinessId,
    row: Pick<StatusResource, 'productId' | 'slug' | 'name' | 'published' | 'sortOrder' | 'stateSince'> &
      Partial<Pick<StatusResource, 'platformService' | 'automaticIncidents'>>,
    tx: Tx,
  ): Promise<string> {
    try {
      const [created] = await this.insertReturning(business, [row], tx);
      return created.id;
    } catch (err) {
      if (isUniqueViolation(err)) throw publicStatusError(PublicStatusError.SLUG_TAKEN, { slug: row.slug });
      throw err;
    }
  }

  async change(
    business: BusinessId,
    id: string,
    set: Partial<
      Pick<StatusResource, 'name' | 'published' | 'sortOrder' | 'platformService' | 'automaticIncidents'>
    >,
    tx: Tx,
  ): Promise<void> {
    if (Object.keys(set).length) await this.update(business, { id }, set, tx);
  }

  async setState(
    business: BusinessId,
    id: string,
    state: ComponentState,
    source: StateSource,
    since: Date,
    tx: Tx,
  ): Promise<void> {
    await this.update(business, { id }, { state, stateSource: source, stateSince: since }, tx);
  }
}
