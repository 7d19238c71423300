import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { TenantScopedRepository, type Tx } from '@platform/persistence';
import type { OrganizationId } from '@platform/tenancy';
import { DocumentStatusChange } from './document-status-change.entity';

/** The append-only status history: rows are added in the transaction that moves the document, never changed. */
@Injectable()
export class DocumentHistoryRepository extends TenantScopedRepository<
  DocumentStatusChange,
  'organizationId'
> {
  constructor(@InjectDataSource() ds: DataSource) {
    super(ds, DocumentStatusChange, 'organizationId');
  }

  async append(
    organizationId: OrganizationId,
    row: {
      documentId: string;
      fromStatus: string | null;
      toStatus: string;
      reason: string | null;
      changedAt: Date;
    },
    tx: Tx,
  ): Promise<void> {
    await this.insert(organizationId, [row], tx);
  }

  /** Oldest first; the serial id orders moves within one instant. */
  of(organizationId: OrganizationId, documentId: string): Promise<DocumentStatusChange[]> {
    return this.find(organizationId, { documentId }, { id: 'ASC' });
  }
}
