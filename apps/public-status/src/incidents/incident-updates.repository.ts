import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { TenantScopedRepository, type Tx } from '@platform/persistence';
import type { BusinessId } from '../tenancy/business-id';
import { IncidentUpdate } from './incident-update.entity';

@Injectable()
export class IncidentUpdatesRepository extends TenantScopedRepository<IncidentUpdate, 'businessId'> {
  constructor(@InjectDataSource() ds: DataSource) {
    super(ds, IncidentUpdate, 'businessId');
  }

  /** The chain's last link (the caller holds the incident's lock). */
  last(business: BusinessId, incidentId: string, tx: Tx): Promise<IncidentUpdate | null> {
    return this.select(
      business,
      'u',
      (q) =>
        q.andWhere('u.incident_id = :incidentId', { incidentId }).orderBy('u.seq', 'DESC').limit(1).getOne(),
      tx,
    );
  }

  async append(business: BusinessId, row: Omit<IncidentUpdate, 'id' | 'businessId'>, tx: Tx): Promise<void> {
    await this.insert(business, [row], tx);
  }

  /** Every update of these incidents, in chain order. */
  ofIncidents(business: BusinessId, incidentIds: string[]): Promise<IncidentUpdate[]> {
    if (!incidentIds.length) return Promise.resolve([]);
    return this.select(business, 'u', (q) =>
      q
        .andWhere('u.incident_id IN (:...incidentIds)', { incidentIds })
        .orderBy('u.incident_id', 'ASC')
        .addOrderBy('u.seq', 'ASC')
        .getMany(),
    );
  }

  /** Every update of the business, in chain order (the chain check). */
  all(business: BusinessId): Promise<IncidentUpdate[]> {
    return this.select(business, 'u', (q) =>
      q.orderBy('u.incident_id', 'ASC').addOrderBy('u.seq', 'ASC').getMany(),
    );
  }
}
