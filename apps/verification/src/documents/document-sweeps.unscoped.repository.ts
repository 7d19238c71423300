// Unscoped: the upload and processing sweeps claim due documents of every organization, and the signed-upload route finds a document's organization from its id.
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { txManager, type Tx } from '@platform/persistence';
import type { OrganizationId } from '@platform/tenancy';
import { Document } from './document.entity';

/** Documents across organizations: the sweeps' claims and the owner of a document id. */
@Injectable()
export class DocumentSweepsRepository {
  constructor(@InjectDataSource() private readonly ds: DataSource) {}

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
}
