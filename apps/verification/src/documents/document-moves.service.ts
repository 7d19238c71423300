import { Injectable } from '@nestjs/common';
import type { Tx } from '@platform/persistence';
import type { OrganizationId } from '@platform/tenancy';
import { VerificationEvents } from '../events/verification-events';
import { DocumentHistoryRepository } from './document-history.repository';
import { canMoveDocument, isDocumentStatus, type DocumentStatus } from './document-statuses';
import type { Document } from './document.entity';
import { DocumentsError, documentsError } from './documents.errors';
import { DocumentsRepository, type DocumentChange } from './documents.repository';

/**
 * The only place a document's status is written (like CaseMoves for cases). Every area (uploads, the
 * expiry sweep, the orchestrator) moves a document through here inside its own transaction: the move
 * is checked against DOCUMENT_TRANSITIONS, recorded in the append-only history and announced as
 * `document.status_changed`, all in that transaction. Lock the document (`lock`) first.
 */
@Injectable()
export class DocumentMoves {
  constructor(
    private readonly documents: DocumentsRepository,
    private readonly history: DocumentHistoryRepository,
    private readonly events: VerificationEvents,
  ) {}

  /** The document locked until `tx` ends, or DOCUMENT_NOT_FOUND. */
  async lock(tx: Tx, organizationId: OrganizationId, documentId: string): Promise<Document> {
    const d = await this.documents.lock(organizationId, documentId, tx);
    if (!d) throw documentsError(DocumentsError.NOT_FOUND, { documentId });
    return d;
  }

  /** Records a new document's first status (history row and event); the row itself is already written. */
  async started(tx: Tx, organizationId: OrganizationId, doc: Document): Promise<void> {
    await this.record(tx, organizationId, doc, null, null, doc.updatedAt);
  }

  /**
   * Moves a document to `to`, or answers DOCUMENT_TRANSITION_NOT_ALLOWED (409). `reason` is a code kept
   * as the rejection reason when `to` is Rejected, and in the history and event either way. Leaving
   * Processing clears the lease. `also` sets further columns in the same update (e.g. the detected
   * type). Returns the document as it now is.
   */
  async move(
    tx: Tx,
    organizationId: OrganizationId,
    doc: Document,
    to: DocumentStatus,
    reason: string | null = null,
    also: DocumentChange = {},
  ): Promise<Document> {
    if (!isDocumentStatus(doc.status) || !canMoveDocument(doc.status, to))
      throw documentsError(DocumentsError.TRANSITION_NOT_ALLOWED, { from: doc.status, to });
    const now = new Date();
    const set: DocumentChange = { ...also, status: to, updatedAt: now };
    if (to === 'Rejected') set.rejectionReason = reason;
    if (doc.status === 'Processing' && to !== 'Processing') set.leaseUntil = null;
    await this.documents.change(organizationId, doc.id, set, tx);
    const moved: Document = { ...doc, ...set } as Document;
    await this.record(tx, organizationId, moved, doc.status, reason, now);
    return moved;
  }

  private async record(
    tx: Tx,
    organizationId: OrganizationId,
    doc: Document,
    from: string | null,
    reason: string | null,
    at: Date,
  ): Promise<void> {
    await this.history.append(
      organizationId,
      { documentId: doc.id, fromStatus: from, toStatus: doc.status, reason, changedAt: at },
      tx,
    );
    await this.events.emit(tx, organizationId, 'document.status_changed', {
      caseId: doc.caseId,
      documentId: doc.id,
      fromStatus: from,
      toStatus: doc.status,
      reason,
      changedAt: at.toISOString(),
    });
  }
}
