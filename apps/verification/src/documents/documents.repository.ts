import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { TenantScopedRepository, type Tx } from '@platform/persistence';
import type { OrganizationId } from '@platform/tenancy';
import { Document } from './document.entity';

export type DocumentChange = Partial<
  Pick<
    Document,
    | 'status'
    | 'updatedAt'
    | 'fileName'
    | 'declaredContentType'
    | 'detectedType'
    | 'sizeBytes'
    | 'sha256'
    | 'storageKey'
    | 'uploadExpiresAt'
    | 'uploadedAt'
    | 'leaseUntil'
    | 'rejectionReason'
    | 'processingAttempts'
  >
>;

@Injectable()
export class DocumentsRepository extends TenantScopedRepository<Document, 'organizationId'> {
  constructor(@InjectDataSource() ds: DataSource) {
    super(ds, Document, 'organizationId');
  }

  async create(organizationId: OrganizationId, row: Omit<Document, 'organizationId'>, tx: Tx): Promise<void> {
    await this.insert(organizationId, [row], tx);
  }

  get(organizationId: OrganizationId, id: string, tx?: Tx): Promise<Document | null> {
    return this.findOne(organizationId, { id }, tx);
  }

  inCase(organizationId: OrganizationId, caseId: string, id: string): Promise<Document | null> {
    return this.findOne(organizationId, { caseId, id });
  }

  /** Oldest first; the id breaks ties. */
  ofCase(organizationId: OrganizationId, caseId: string): Promise<Document[]> {
    return this.find(organizationId, { caseId }, { createdAt: 'ASC', id: 'ASC' });
  }

  /** The document, locked until `tx` ends: its moves happen one at a time. */
  lock(organizationId: OrganizationId, id: string, tx: Tx): Promise<Document | null> {
    return this.select(
      organizationId,
      'd',
      (q) => q.andWhere('d.id = :id', { id }).setLock('pessimistic_write').getOne(),
      tx,
    );
  }

  async change(organizationId: OrganizationId, id: string, set: DocumentChange, tx: Tx): Promise<void> {
    await this.update(organizationId, { id }, set, tx);
  }

  /**
   * Documents of the organization's other cases with the same bytes (duplicate detection,
   * documents_sha256_idx): never another organization's, the tenant condition is part of the query.
   */
  inOtherCasesWithBytes(organizationId: OrganizationId, caseId: string, sha256: string): Promise<Document[]> {
    return this.select(organizationId, 'd', (q) =>
      q
        .andWhere('d.sha256 = :sha256', { sha256 })
        .andWhere('d.case_id <> :caseId', { caseId })
        .orderBy('d.uploaded_at', 'ASC')
        .limit(50)
        .getMany(),
    );
  }
}
