import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { TenantScopedRepository, type Tx } from '@platform/persistence';
import type { BusinessId } from '../tenancy/business-id';
import { UptimeDay } from './uptime-day.entity';

@Injectable()
export class UptimeRepository extends TenantScopedRepository<UptimeDay, 'businessId'> {
  constructor(@InjectDataSource() ds: DataSource) {
    super(ds, UptimeDay, 'businessId');
  }

  /**
   * Each (resource, day)'s current figures, the highest revision, for a whole range in one statement
   * (the unique index (resource_id, day, revision) serves it).
   */
  current(business: BusinessId, resourceIds: string[], fromDay: string, toDay: string): Promise<UptimeDay[]> {
    if (!resourceIds.length) return Promise.resolve([]);
    return this.select(business, 'u', (q) =>
      q
        .distinctOn(['u.resource_id', 'u.day'])
        .andWhere('u.resource_id IN (:...resourceIds)', { resourceIds })
        .andWhere('u.day BETWEEN :fromDay AND :toDay', { fromDay, toDay })
        .orderBy('u.resource_id', 'ASC')
        .addOrderBy('u.day', 'ASC')
        .addOrderBy('u.revision', 'DESC')
        .getMany(),
    );
  }

  /**
   * Serializes rollups of one resource across replicas until the transaction ends, so each appends to
   * the chain's true head and a day's revision is decided once.
   */
  async lockChain(business: BusinessId, resourceId: string, tx: Tx): Promise<void> {
    await this.sql(
      business,
      `SELECT pg_advisory_xact_lock(hashtext('public_status.uptime_daily'), hashtext($1::text || '/' || $2::text))`,
      [resourceId],
      tx,
    );
  }

  lastLink(business: BusinessId, resourceId: string, tx: Tx): Promise<UptimeDay | null> {
    return this.select(
      business,
      'u',
      (q) =>
        q.andWhere('u.resource_id = :resourceId', { resourceId }).orderBy('u.id', 'DESC').limit(1).getOne(),
      tx,
    );
  }

  latestOfDay(business: BusinessId, resourceId: string, day: string, tx: Tx): Promise<UptimeDay | null> {
    return this.select(
      business,
      'u',
      (q) =>
        q
          .andWhere('u.resource_id = :resourceId AND u.day = :day', { resourceId, day })
          .orderBy('u.revision', 'DESC')
          .limit(1)
          .getOne(),
      tx,
    );
  }

  /** Inserts unless that revision exists already (another replica won): true when inserted. */
  async append(business: BusinessId, row: Omit<UptimeDay, 'id' | 'businessId'>, tx: Tx): Promise<boolean> {
    return (await this.insertIfAbsent(business, [row], tx)) > 0;
  }

  /** A business's rows in chain order (per resource, insertion order). */
  all(business: BusinessId): Promise<UptimeDay[]> {
    return this.select(business, 'u', (q) =>
      q.orderBy('u.resource_id', 'ASC').addOrderBy('u.id', 'ASC').getMany(),
    );
  }
}
