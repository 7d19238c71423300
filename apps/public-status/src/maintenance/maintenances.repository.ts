import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { TenantScopedRepository, type Tx } from '@platform/persistence';
import type { BusinessId } from '../tenancy/business-id';
import { Maintenance } from './maintenance.entity';

@Injectable()
export class MaintenancesRepository extends TenantScopedRepository<Maintenance, 'businessId'> {
  constructor(@InjectDataSource() ds: DataSource) {
    super(ds, Maintenance, 'businessId');
  }

  async create(business: BusinessId, row: Omit<Maintenance, 'businessId'>, tx: Tx): Promise<void> {
    await this.insert(business, [row], tx);
  }

  lock(business: BusinessId, id: string, tx: Tx): Promise<Maintenance | null> {
    return this.select(
      business,
      'm',
      (q) => q.andWhere('m.id = :id', { id }).setLock('pessimistic_write').getOne(),
      tx,
    );
  }

  get(business: BusinessId, id: string): Promise<Maintenance | null> {
    return this.findOne(business, { id });
  }

  recent(business: BusinessId, limit: number): Promise<Maintenance[]> {
    return this.select(business, 'm', (q) =>
      q.orderBy('m.scheduled_for', 'DESC').addOrderBy('m.id', 'ASC').limit(limit).getMany(),
    );
  }

  async change(
    business: BusinessId,
    id: string,
    set: Partial<Pick<Maintenance, 'status' | 'startedAt' | 'completedAt'>>,
    tx: Tx,
  ): Promise<void> {
    await this.update(business, { id }, set, tx);
  }
}
