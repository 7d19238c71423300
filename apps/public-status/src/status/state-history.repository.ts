import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, IsNull } from 'typeorm';
import { TenantScopedRepository, type Tx } from '@platform/persistence';
import type { BusinessId } from '../tenancy/business-id';
import { StateHistoryRow } from './state-history.entity';
import type { ComponentState, StateSource } from './states';

@Injectable()
export class StateHistoryRepository extends TenantScopedRepository<StateHistoryRow, 'businessId'> {
  constructor(@InjectDataSource() ds: DataSource) {
    super(ds, StateHistoryRow, 'businessId');
  }

  /** Ends the open row (if any) and opens the next: the caller holds the resource's lock. */
  async append(
    business: BusinessId,
    row: { resourceId: string; state: ComponentState; source: StateSource; note: string; at: Date },
    tx: Tx,
  ): Promise<void> {
    await this.update(business, { resourceId: row.resourceId, endedAt: IsNull() }, { endedAt: row.at }, tx);
    await this.insert(
      business,
      [
        {
          resourceId: row.resourceId,
          state: row.state,
          source: row.source,
          note: row.note,
          startedAt: row.at,
        },
      ],
      tx,
    );
  }

  /** Newest first. */
  latest(business: BusinessId, resourceId: string, limit: number): Promise<StateHistoryRow[]> {
    return this.select(business, 'h', (q) =>
      q
        .andWhere('h.resource_id = :resourceId', { resourceId })
        .orderBy('h.started_at', 'DESC')
        .addOrderBy('h.id', 'DESC')
        .limit(limit)
        .getMany(),
    );
  }

  /** Rows of these resources overlapping [from, to), oldest first. */
  overlapping(business: BusinessId, resourceIds: string[], from: Date, to: Date): Promise<StateHistoryRow[]> {
    if (!resourceIds.length) return Promise.resolve([]);
    return this.select(business, 'h', (q) =>
      q
        .andWhere('h.resource_id IN (:...resourceIds)', { resourceIds })
        .andWhere('h.started_at < :to', { to })
        .andWhere('(h.ended_at IS NULL OR h.ended_at > :from)', { from })
        .orderBy('h.started_at', 'ASC')
        .addOrderBy('h.id', 'ASC')
        .getMany(),
    );
  }
}
