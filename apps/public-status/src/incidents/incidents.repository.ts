import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, In } from 'typeorm';
import { TenantScopedRepository, type Tx } from '@platform/persistence';
import type { BusinessId } from '../tenancy/business-id';
import { Incident } from './incident.entity';

@Injectable()
export class IncidentsRepository extends TenantScopedRepository<Incident, 'businessId'> {
  constructor(@InjectDataSource() ds: DataSource) {
    super(ds, Incident, 'businessId');
  }

  async create(business: BusinessId, row: Omit<Incident, 'businessId'>, tx: Tx): Promise<void> {
    await this.insert(business, [row], tx);
  }

  /** The incident, locked: its updates are appended one at a time, so the chain never forks. */
  lock(business: BusinessId, id: string, tx: Tx): Promise<Incident | null> {
    return this.select(
      business,
      'i',
      (q) => q.andWhere('i.id = :id', { id }).setLock('pessimistic_write').getOne(),
      tx,
    );
  }

  /** The resource's open automatic incidents, locked (at most one, unless staff widened one). */
  openAutomatic(business: BusinessId, resourceId: string, tx: Tx): Promise<Incident[]> {
    return this.select(
      business,
      'i',
      (q) =>
        q
          .andWhere("i.origin = 'automatic' AND i.status <> 'resolved'")
          .andWhere(':resourceId = ANY(i.resource_ids)', { resourceId })
          .orderBy('i.created_at', 'ASC')
          .setLock('pessimistic_write')
          .getMany(),
      tx,
    );
  }

  get(business: BusinessId, id: string): Promise<Incident | null> {
    return this.findOne(business, { id });
  }

  recent(business: BusinessId, limit: number): Promise<Incident[]> {
    return this.select(business, 'i', (q) =>
      q.orderBy('i.created_at', 'DESC').addOrderBy('i.id', 'ASC').limit(limit).getMany(),
    );
  }

  byIds(business: BusinessId, ids: string[]): Promise<Incident[]> {
    return ids.length ? this.find(business, { id: In(ids) }) : Promise.resolve([]);
  }

  async change(
    business: BusinessId,
    id: string,
    set: Partial<Pick<Incident, 'status' | 'updatedAt' | 'resolvedAt' | 'impact'>>,
    tx: Tx,
  ): Promise<void> {
    await this.update(business, { id }, set, tx);
  }
}
