import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { TenantScopedRepository, type Tx } from '@platform/persistence';
import type { OrganizationId } from '@platform/tenancy';
import { CaseStatusChange } from './case-status-change.entity';

/** The append-only status history: rows are added in the transaction that moves the case, never changed. */
@Injectable()
export class CaseHistoryRepository extends TenantScopedRepository<CaseStatusChange, 'organizationId'> {
  constructor(@InjectDataSource() ds: DataSource) {
    super(ds, CaseStatusChange, 'organizationId');
  }

  async append(
    organizationId: OrganizationId,
    row: { caseId: string; fromStatus: string | null; toStatus: string; changedAt: Date },
    tx: Tx,
  ): Promise<void> {
    await this.insert(organizationId, [row], tx);
  }

  /** Oldest first; the serial id orders moves within one instant. */
  of(organizationId: OrganizationId, caseId: string): Promise<CaseStatusChange[]> {
    return this.find(organizationId, { caseId }, { id: 'ASC' });
  }
}
