import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { TenantScopedRepository, type Tx } from '@platform/persistence';
import type { OrganizationId } from '@platform/tenancy';
import { ApplicationStatusChange } from './status-change.entity';

export type NewStatusChange = Omit<ApplicationStatusChange, 'id' | 'organizationId' | 'seq' | 'createdAt'>;

/** The append-only status history (the tenant role has no UPDATE or DELETE on it). */
@Injectable()
export class StatusHistoryRepository extends TenantScopedRepository<
  ApplicationStatusChange,
  'organizationId'
> {
  constructor(@InjectDataSource() ds: DataSource) {
    super(ds, ApplicationStatusChange, 'organizationId');
  }

  /** Appends the next line; the caller holds the application's row lock, so `seq` cannot collide. */
  async append(organizationId: OrganizationId, row: NewStatusChange, tx: Tx): Promise<void> {
    const last = await this.select(
      organizationId,
      'h',
      (q) =>
        q
          .select('coalesce(max(h.seq), 0)::int', 'seq')
          .andWhere('h.application_id = :app', { app: row.applicationId })
          .getRawOne<{ seq: number }>(),
      tx,
    );
    await this.insert(organizationId, [{ ...row, seq: (last?.seq ?? 0) + 1 }], tx);
  }

  /** Oldest first. */
  pageOf(
    organizationId: OrganizationId,
    applicationId: string,
    offset: number,
    limit: number,
    tx: Tx,
  ): Promise<[ApplicationStatusChange[], number]> {
    return this.page(organizationId, { applicationId }, { order: { seq: 'ASC' }, offset, limit }, tx);
  }
}
