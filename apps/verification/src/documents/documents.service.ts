import { createHash, randomUUID } from 'node:crypto';
import { Inject, Injectable, Logger } from '@nestjs/common';
import type { ListValue } from '@platform/envelope';
import { Transactions, type Tx } from '@platform/persistence';
import type { OrganizationId } from '@platform/tenancy';
import { CaseMoves } from '../cases/case-moves.service';
import { CasesError, casesError } from '../cases/cases.errors';
import { CasesRepository } from '../cases/cases.repository';
import type { VerificationCase } from '../cases/verification-case.entity';
import { VerificationConfig } from '../config/verification.config';
import { VerificationEvents } from '../events/verification-events';
import { DocumentHistoryRepository } from './document-history.repository';
import { DocumentMoves } from './document-moves.service';
import {
  acceptedContentType,
  isDocumentKind,
  type DocumentKind,
  type DocumentSource,
  type DocumentStatus,
} from './document-statuses';
import type { Document } from './document.entity';
import { DocumentsError, documentsError } from './documents.errors';
import { DocumentSweepsRepository } from './document-sweeps.unscoped.repository';
import { DocumentsRepository } from './documents.repository';
import { refuseContentEncoding } from './read-upload-body';
import { FILE_STORAGE, FileNotStoredError, documentStorageKey, type FileStorage } from './file-storage';
import { signUpload, uploadSignatureValid, uploadUrl, type SignedUpload } from './upload-signature';

/** A document as the API shows it (never its storage key). */
export interface DocumentView {
  id: string;
  caseId: string;
  kind: DocumentKind;
  source: DocumentSource;
  status: DocumentStatus;
  fileName: string | null;
  declaredContentType: string;
  detectedType: string | null;
  sizeBytes: number | null;
  sha256: string | null;
  rejectionReason: string | null;
  createdAt: string;
  uploadedAt: string | null;
  updatedAt: string;
}

export interface DocumentStatusChangeView {
  fromStatus: string | null;
  toStatus: string;
  reason: string | null;
  changedAt: string;
}

export interface DocumentDetailView extends DocumentView {
  statusHistory: DocumentStatusChangeView[];
}

export interface SignedUploadUrlView {
  documentId: string;
  uploadUrl: string;
  method: 'PUT';
  headers: { 'Content-Type': string };
  expiresAt: string;
  maxBytes: number;
}

export interface ReceiveInput {
  organizationId: OrganizationId;
  caseId: string;
  kind: DocumentKind;
  source: DocumentSource;
  fileName: string | null;
  declaredContentType: string;
  body: Buffer;
  /** An existing AwaitingUpload document of the case (the signed-URL path); else a new one is made. */
  documentId?: string;
}

/** A signed upload, checked before a byte of its body is read (DocumentsService.openUpload). */
export interface OpenUpload {
  organizationId: OrganizationId;
  doc: Document;
}

/** A document claimed by the orchestrator, with its tenant (the claim spans organizations). */
export interface ClaimedDocument {
  organizationId: OrganizationId;
  doc: Document;
}

/** Case statuses in which documents are taken. */
const ACCEPTING = new Set(['AwaitingApplicant', 'DocumentsReceived']);
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const MAX_FILE_NAME = 200;
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;

/**
 * A sender's file name, reduced to its last path segment (never used as a path: the storage key is
 * the server's), or DOCUMENT_FILE_NAME_INVALID.
 */
export function cleanFileName(raw: string | null | undefined): string | null {
  if (raw === null || raw === undefined) return null;
  const name = raw.split(/[\\/]/).pop() ?? '';
  if (!name || [...name].length > MAX_FILE_NAME || CONTROL.test(name) || !name.isWellFormed())
    throw documentsError(DocumentsError.FILE_NAME_INVALID);
  return name;
}

/**
 * Documents of a case (docs/verification/documents.md): signed upload URLs, receiving bytes from the
 * portal and the signed URL alike, reading them back, and the sweep that expires unused URLs. Status
 * moves go through DocumentMoves, case moves through CaseMoves, events through VerificationEvents,
 * all in the transaction of the change.
 */
@Injectable()
export class DocumentsService {
  private readonly logger = new Logger('Documents');

  constructor(
    private readonly config: VerificationConfig,
    private readonly transactions: Transactions,
    private readonly documents: DocumentsRepository,
    private readonly sweeps: DocumentSweepsRepository,
    private readonly history: DocumentHistoryRepository,
    private readonly cases: CasesRepository,
    private readonly caseMoves: CaseMoves,
    private readonly moves: DocumentMoves,
    private readonly events: VerificationEvents,
    @Inject(FILE_STORAGE) private readonly storage: FileStorage,
  ) {}

  /**
   * Step 3 of the spec: a document row in AwaitingUpload and a URL the caller's system PUTs the bytes
   * to, valid DOCUMENT_UPLOAD_URL_TTL_SECONDS, for exactly this Content-Type.
   */
  async issueUploadUrl(
    organizationId: OrganizationId,
    caseId: string,
    req: { kind: DocumentKind; fileName?: string | null; contentType: string; sizeBytes?: number | null },
  ): Promise<SignedUploadUrlView> {
    const secret = this.config.documentUploadSigningSecret();
    if (!secret) throw documentsError(DocumentsError.UPLOADS_UNAVAILABLE);
    const contentType = this.contentTypeOf(req.contentType);
    const maxBytes = this.config.DOCUMENT_MAX_BYTES;
    if (req.sizeBytes !== undefined && req.sizeBytes !== null && req.sizeBytes > maxBytes)
      throw documentsError(DocumentsError.TOO_LARGE, { maxBytes });
    const fileName = cleanFileName(req.fileName);
    const kind = this.kindOf(req.kind);
    const now = new Date();
    const expires = Math.floor(now.getTime() / 1000) + this.config.DOCUMENT_UPLOAD_URL_TTL_SECONDS;
    const documentId = randomUUID();
    await this.transactions.run(async (tx) => {
      await this.acceptingCase(tx, organizationId, caseId);
      const doc: Document = {
        id: documentId,
        organizationId,
        caseId,
        kind,
        source: 'api',
        status: 'AwaitingUpload',
        fileName,
        declaredContentType: contentType,
        detectedType: null,
        maxBytes,
        sizeBytes: null,
        sha256: null,
        storageKey: null,
        uploadExpiresAt: new Date(expires * 1000),
        processingAttempts: 0,
        leaseUntil: null,
        rejectionReason: null,
        createdAt: now,
        uploadedAt: null,
        updatedAt: now,
      };
      await this.documents.create(organizationId, withoutTenant(doc), tx);
      await this.moves.started(tx, organizationId, doc);
    });
    const signed: SignedUpload = { method: 'PUT', documentId, expires, contentType };
    return {
      documentId,
      uploadUrl: uploadUrl(this.config.APPLICANT_PORTAL_URL, signed, signUpload(secret, signed)),
      method: 'PUT',
      headers: { 'Content-Type': contentType },
      expiresAt: new Date(expires * 1000).toISOString(),
      maxBytes,
    };
  }

  /**
   * Checks a signed upload before its body is read: signature (constant time) over the document's own
   * signed fields, then expiry, Content-Type, Content-Encoding, single use and a declared length.
   * An unknown document answers like a wrong signature: the URL is the credential.
   */
  async openUpload(
    documentId: string,
    q: { expires?: unknown; signature?: unknown },
    headers: { contentType?: string; contentEncoding?: string; contentLength?: string },
  ): Promise<OpenUpload> {
    const secret = this.config.documentUploadSigningSecret();
    if (!secret) throw documentsError(DocumentsError.UPLOADS_UNAVAILABLE);
    const expires = typeof q.expires === 'string' && /^\d{1,12}$/.test(q.expires) ? Number(q.expires) : NaN;
    const signature = typeof q.signature === 'string' ? q.signature : '';
    const organizationId = UUID.test(documentId) ? await this.sweeps.ownerOf(documentId) : null;
    const doc = organizationId ? await this.documents.get(organizationId, documentId) : null;
    if (
      !organizationId ||
      !doc ||
      !Number.isFinite(expires) ||
      !uploadSignatureValid(
        secret,
        { method: 'PUT', documentId, expires, contentType: doc.declaredContentType },
        signature,
      )
    )
      throw documentsError(DocumentsError.SIGNATURE_INVALID);
    if (expires * 1000 <= Date.now()) throw documentsError(DocumentsError.URL_EXPIRED);
    const sent = (headers.contentType ?? '').split(';')[0].trim().toLowerCase();
    if (acceptedContentType(sent) !== doc.declaredContentType)
      throw documentsError(DocumentsError.CONTENT_TYPE_MISMATCH, { expected: doc.declaredContentType });
    refuseContentEncoding(headers.contentEncoding);
    if (doc.status !== 'AwaitingUpload')
      throw documentsError(DocumentsError.ALREADY_UPLOADED, { status: doc.status });
    const declared = Number(headers.contentLength);
    if (headers.contentLength !== undefined && Number.isFinite(declared) && declared > doc.maxBytes)
      throw documentsError(DocumentsError.TOO_LARGE, { maxBytes: doc.maxBytes });
    return { organizationId, doc };
  }

  /** The bytes of an opened signed upload: the same path as the portal's (`receive`). */
  completeUpload(open: OpenUpload, body: Buffer): Promise<DocumentView> {
    return this.receive({
      organizationId: open.organizationId,
      caseId: open.doc.caseId,
      kind: open.doc.kind,
      source: open.doc.source,
      fileName: open.doc.fileName,
      declaredContentType: open.doc.declaredContentType,
      body,
      documentId: open.doc.id,
    });
  }

  /**
   * Receives a document's bytes (the borrower portal, or a signed upload with `documentId`), in one
   * transaction: the case is locked and must still take documents, the bytes are written to storage
   * under the server's key before the row commits (a failed commit leaves an orphan file at worst,
   * never a row without its file), the document becomes Uploaded with its size and SHA-256,
   * `document.status_changed` and `document.uploaded` are emitted and the case moves
   * AwaitingApplicant -> DocumentsReceived.
   */
  async receive(input: ReceiveInput): Promise<DocumentView> {
    const { organizationId, caseId, body } = input;
    const kind = this.kindOf(input.kind);
    const contentType = this.contentTypeOf(input.declaredContentType);
    const fileName = cleanFileName(input.fileName);
    if (body.length === 0) throw documentsError(DocumentsError.EMPTY);
    const maxBytes = this.config.DOCUMENT_MAX_BYTES;
    if (body.length > maxBytes) throw documentsError(DocumentsError.TOO_LARGE, { maxBytes });
    const sha256 = createHash('sha256').update(body).digest('hex');
    return this.transactions.run(async (tx) => {
      const c = await this.acceptingCase(tx, organizationId, caseId);
      const now = new Date();
      let doc: Document;
      let from: Document | null = null;
      if (input.documentId !== undefined) {
        const found = UUID.test(input.documentId)
          ? await this.documents.lock(organizationId, input.documentId, tx)
          : null;
        if (!found || found.caseId !== caseId)
          throw documentsError(DocumentsError.NOT_FOUND, { documentId: input.documentId });
        if (found.status !== 'AwaitingUpload')
          throw documentsError(DocumentsError.ALREADY_UPLOADED, { status: found.status });
        if (body.length > found.maxBytes)
          throw documentsError(DocumentsError.TOO_LARGE, { maxBytes: found.maxBytes });
        from = found;
        doc = found;
      } else {
        doc = {
          id: randomUUID(),
          organizationId,
          caseId,
          kind,
          source: input.source,
          status: 'Uploaded',
          fileName,
          declaredContentType: contentType,
          detectedType: null,
          maxBytes,
          sizeBytes: body.length,
          sha256,
          storageKey: null,
          uploadExpiresAt: null,
          processingAttempts: 0,
          leaseUntil: null,
          rejectionReason: null,
          createdAt: now,
          uploadedAt: now,
          updatedAt: now,
        };
      }
      const storageKey = documentStorageKey(organizationId, caseId, doc.id);
      await this.store(storageKey, body, contentType);
      if (from) {
        doc = await this.moves.move(tx, organizationId, from, 'Uploaded', null, {
          sizeBytes: body.length,
          sha256,
          storageKey,
          uploadedAt: now,
          uploadExpiresAt: null,
        });
      } else {
        doc = { ...doc, storageKey };
        await this.documents.create(organizationId, withoutTenant(doc), tx);
        await this.moves.started(tx, organizationId, doc);
      }
      await this.events.emit(tx, organizationId, 'document.uploaded', {
        caseId,
        documentId: doc.id,
        kind: doc.kind,
        source: doc.source,
        contentType: doc.declaredContentType,
        sizeBytes: body.length,
        sha256,
        uploadedAt: now.toISOString(),
      });
      await this.caseMoves.ensure(tx, organizationId, c, 'DocumentsReceived');
      return documentView(doc);
    });
  }

  /** A document and its bytes (the orchestrator, downloads); 409 while it has none. */
  async read(
    organizationId: OrganizationId,
    documentId: string,
  ): Promise<{ doc: DocumentView; body: Buffer }> {
    const doc = UUID.test(documentId) ? await this.documents.get(organizationId, documentId) : null;
    if (!doc) throw documentsError(DocumentsError.NOT_FOUND, { documentId });
    return { doc: documentView(doc), body: await this.bytesOf(doc) };
  }

  async list(organizationId: OrganizationId, caseId: string): Promise<ListValue<DocumentView>> {
    await this.foundCase(organizationId, caseId);
    const rows = await this.documents.ofCase(organizationId, caseId);
    return { items: rows.map(documentView), total: rows.length };
  }

  /** A document of the case with its status history, oldest move first. */
  async get(organizationId: OrganizationId, caseId: string, documentId: string): Promise<DocumentDetailView> {
    const doc = await this.foundDocument(organizationId, caseId, documentId);
    const history = await this.history.of(organizationId, doc.id);
    return {
      ...documentView(doc),
      statusHistory: history.map((h) => ({
        fromStatus: h.fromStatus,
        toStatus: h.toStatus,
        reason: h.reason,
        changedAt: h.changedAt.toISOString(),
      })),
    };
  }

  /** A document of the case and its bytes (GET .../content). */
  async content(
    organizationId: OrganizationId,
    caseId: string,
    documentId: string,
  ): Promise<{ doc: DocumentView; body: Buffer }> {
    const doc = await this.foundDocument(organizationId, caseId, documentId);
    return { doc: documentView(doc), body: await this.bytesOf(doc) };
  }

  /**
   * Moves AwaitingUpload documents whose URL lapsed to Expired (reason UPLOAD_URL_EXPIRED), up to
   * `limit`, across organizations; the rows are claimed with SKIP LOCKED, so every replica may run it
   * (DocumentExpirySweeper runs it on its own interval). Returns how many expired.
   */
  expireLapsedUploads(now = new Date(), limit = 100): Promise<number> {
    return this.transactions.run(async (tx) => {
      const rows = await this.sweeps.claimLapsedUploads(now, limit, tx);
      for (const doc of rows)
        await this.moves.move(tx, doc.organizationId, doc, 'Expired', 'UPLOAD_URL_EXPIRED');
      return rows.length;
    });
  }

  /**
   * For the orchestrator: claims up to `limit` documents to process (Uploaded, or Processing whose
   * lease lapsed: a crashed run goes back to Uploaded first, in the history), moves them to Processing
   * with a lease of `leaseMs` and one more attempt, and returns them with their tenant. A lapsed one
   * that already had `maxAttempts` runs is Rejected (PROCESSING_ATTEMPTS_EXHAUSTED) instead. SKIP
   * LOCKED: replicas claim different documents. The orchestrator finishes each with `finishProcessing`.
   */
  claimForProcessing(
    limit: number,
    leaseMs: number,
    maxAttempts: number,
    now = new Date(),
  ): Promise<ClaimedDocument[]> {
    return this.transactions.run(async (tx) => {
      const rows = await this.sweeps.claimForProcessing(now, limit, tx);
      const claimed: ClaimedDocument[] = [];
      for (let doc of rows) {
        if (doc.status === 'Processing' && doc.processingAttempts >= maxAttempts) {
          await this.moves.move(tx, doc.organizationId, doc, 'Rejected', 'PROCESSING_ATTEMPTS_EXHAUSTED');
          continue;
        }
        if (doc.status === 'Processing')
          doc = await this.moves.move(tx, doc.organizationId, doc, 'Uploaded', 'LEASE_LAPSED');
        doc = await this.moves.move(tx, doc.organizationId, doc, 'Processing', null, {
          leaseUntil: new Date(now.getTime() + leaseMs),
          processingAttempts: doc.processingAttempts + 1,
        });
        claimed.push({ organizationId: doc.organizationId, doc });
      }
      return claimed;
    });
  }

  /**
   * The orchestrator's result for a claimed document, in one transaction with the case and then the
   * document locked: if the document is still this run's (Processing, same attempt), `store` writes the
   * steps and it moves to Accepted or Rejected (with `detectedType`); otherwise another replica took it
   * over after the lease lapsed and this run's result is dropped (false).
   */
  finishProcessing(
    claim: ClaimedDocument,
    verdict: { accepted: boolean; reason: string | null; detectedType: string | null },
    store: (tx: Tx) => Promise<void>,
  ): Promise<boolean> {
    const { organizationId, doc } = claim;
    return this.transactions.run(async (tx) => {
      await this.caseMoves.lock(tx, organizationId, doc.caseId);
      const current = await this.moves.lock(tx, organizationId, doc.id);
      if (current.status !== 'Processing' || current.processingAttempts !== doc.processingAttempts)
        return false;
      await store(tx);
      await this.moves.move(
        tx,
        organizationId,
        current,
        verdict.accepted ? 'Accepted' : 'Rejected',
        verdict.reason,
        { detectedType: verdict.detectedType },
      );
      return true;
    });
  }

  /** The bytes of a claimed document (the orchestrator reads them outside any transaction). */
  bytesOfClaimed(claim: ClaimedDocument): Promise<Buffer> {
    return this.bytesOf(claim.doc);
  }

  private async store(key: string, body: Buffer, contentType: string): Promise<void> {
    try {
      await this.storage.put(key, body, contentType);
    } catch (err) {
      this.logger.error(`storing ${key} failed: ${err instanceof Error ? err.message : String(err)}`);
      throw documentsError(DocumentsError.STORAGE_UNAVAILABLE);
    }
  }

  private async bytesOf(doc: Document): Promise<Buffer> {
    if (!doc.storageKey) throw documentsError(DocumentsError.CONTENT_NOT_AVAILABLE, { status: doc.status });
    try {
      return await this.storage.get(doc.storageKey);
    } catch (err) {
      const why =
        err instanceof FileNotStoredError ? 'missing' : err instanceof Error ? err.message : String(err);
      this.logger.error(`reading document ${doc.id} failed: ${why}`);
      throw documentsError(DocumentsError.STORAGE_UNAVAILABLE);
    }
  }

  /** The case locked for this transaction, if it still takes documents (else 409 with its status). */
  private async acceptingCase(
    tx: Tx,
    organizationId: OrganizationId,
    caseId: string,
  ): Promise<VerificationCase> {
    const c = await this.caseMoves.lock(tx, organizationId, caseId);
    if (!ACCEPTING.has(c.status))
      throw documentsError(DocumentsError.CASE_NOT_ACCEPTING, { status: c.status });
    return c;
  }

  private async foundCase(organizationId: OrganizationId, caseId: string): Promise<VerificationCase> {
    const c = UUID.test(caseId) ? await this.cases.get(organizationId, caseId) : null;
    if (!c) throw casesError(CasesError.NOT_FOUND, { caseId });
    return c;
  }

  private async foundDocument(
    organizationId: OrganizationId,
    caseId: string,
    documentId: string,
  ): Promise<Document> {
    await this.foundCase(organizationId, caseId);
    const doc = UUID.test(documentId)
      ? await this.documents.inCase(organizationId, caseId, documentId)
      : null;
    if (!doc) throw documentsError(DocumentsError.NOT_FOUND, { documentId });
    return doc;
  }

  private kindOf(kind: string): DocumentKind {
    if (!isDocumentKind(kind)) throw documentsError(DocumentsError.KIND_INVALID, { kind });
    return kind;
  }

  private contentTypeOf(declared: string): string {
    const t = acceptedContentType(declared);
    if (!t)
      throw documentsError(DocumentsError.CONTENT_TYPE_NOT_ALLOWED, { contentType: declared.slice(0, 100) });
    return t;
  }
}

const withoutTenant = ({ organizationId: _o, ...rest }: Document): Omit<Document, 'organizationId'> => rest;

export function documentView(d: Document): DocumentView {
  return {
    id: d.id,
    caseId: d.caseId,
    kind: d.kind,
    source: d.source,
    status: d.status,
    fileName: d.fileName,
    declaredContentType: d.declaredContentType,
    detectedType: d.detectedType,
    sizeBytes: d.sizeBytes,
    sha256: d.sha256,
    rejectionReason: d.rejectionReason,
    createdAt: d.createdAt.toISOString(),
    uploadedAt: d.uploadedAt ? d.uploadedAt.toISOString() : null,
    updatedAt: d.updatedAt.toISOString(),
  };
}
