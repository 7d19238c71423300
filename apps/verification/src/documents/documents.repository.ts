import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { TenantScopedRepository, txManager, type Tx } from '@platform/persistence';
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
    return this.select(organizationId, 'd', tx)
      .andWhere('d.id = :id', { id })
      .setLock('pessimistic_write')
      .getOne();
  }

  async change(organizationId: OrganizationId, id: string, set: DocumentChange, tx: Tx): Promise<void> {
    await this.update(organizationId, { id }, set, tx);
  }

  /**
   * The tenant of a document id, for the anonymous signed-upload route (the signature, checked next,
   * is the credential; the id alone opens nothing). Null for an unknown id.
   */
  async ownerOf(id: string): Promise<OrganizationId | null> {
    const row = await this.ds
      .getRepository(Document)
      .createQueryBuilder('d')
      .select(['d.id', 'd.organizationId'])
      .where('d.id = :id', { id })
      .getOne();
    return row?.organizationId ?? null;
  }

  /**
   * Up to `limit` AwaitingUpload rows whose URL lapsed before `now`, across organizations, locked with
   * SKIP LOCKED: replicas running the sweep at once take different rows (documents_claim_idx).
   */
  claimLapsedUploads(now: Date, limit: number, tx: Tx): Promise<Document[]> {
    return txManager(tx)
      .getRepository(Document)
      .createQueryBuilder('d')
      .where(`d.status = 'AwaitingUpload'`)
      .andWhere('d.upload_expires_at < :now', { now })
      .orderBy('d.upload_expires_at', 'ASC')
      .limit(limit)
      .setLock('pessimistic_write')
      .setOnLocked('skip_locked')
      .getMany();
  }

  /**
   * The orchestrator's claim: up to `limit` documents waiting (Uploaded) or whose run lapsed
   * (Processing with `lease_until` before `now`: the replica died), across organizations, oldest upload
   * first, locked with SKIP LOCKED (documents_claim_idx).
   */
  claimForProcessing(now: Date, limit: number, tx: Tx): Promise<Document[]> {
    return txManager(tx)
      .getRepository(Document)
      .createQueryBuilder('d')
      .where(`(d.status = 'Uploaded' OR (d.status = 'Processing' AND d.lease_until < :now))`, { now })
      .orderBy('d.uploaded_at', 'ASC')
      .addOrderBy('d.id', 'ASC')
      .limit(limit)
      .setLock('pessimistic_write')
      .setOnLocked('skip_locked')
      .getMany();
  }

  /**
   * Documents of the organization's other cases with the same bytes (duplicate detection,
   * documents_sha256_idx): never another organization's, the tenant condition is part of the query.
   */
  inOtherCasesWithBytes(organizationId: OrganizationId, caseId: string, sha256: string): Promise<Document[]> {
    return this.select(organizationId, 'd')
      .andWhere('d.sha256 = :sha256', { sha256 })
      .andWhere('d.case_id <> :caseId', { caseId })
      .orderBy('d.uploaded_at', 'ASC')
      .limit(50)
      .getMany();
  }
}
