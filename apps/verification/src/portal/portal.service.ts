import { Injectable } from '@nestjs/common';
import { Transactions } from '@platform/persistence';
import { CaseMoves } from '../cases/case-moves.service';
import { DocumentsService } from '../documents/documents.service';
import type { CaseUploadToken } from '../cases/case-upload-token.entity';
import { CaseUploadTokensRepository } from '../cases/case-upload-tokens.repository';
import { UploadTokenLookupRepository } from '../cases/upload-token-lookup.unscoped.repository';
import { CasesRepository } from '../cases/cases.repository';
import { UPLOAD_TOKEN_PATTERN, hashUploadToken } from '../cases/upload-token-issuer';
import type { VerificationCase } from '../cases/verification-case.entity';
import { VerificationConfig } from '../config/verification.config';
import { LINK_STATE_ERROR, linkStateOf } from './link-state';
import { portalKindsOf, type LinkState, type PortalKind, type UploadedItem } from './portal-page';
import { PortalError, portalError } from './portal.errors';

/** A presented link: its state, and for a known token its row and case (never shown to the borrower). */
export interface ResolvedLink {
  state: LinkState;
  token: CaseUploadToken | null;
  case: VerificationCase | null;
}

export interface OpenLink extends ResolvedLink {
  state: 'open';
  token: CaseUploadToken;
  case: VerificationCase;
}

export interface FinishedView {
  finishedAt: string;
}

/** What an upload from the page says about its file, checked before a byte of it is read. */
export interface PortalUploadInput {
  kind: PortalKind;
  fileName: string;
  declaredContentType: string;
}

const MAX_FILE_NAME = 200;
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f]/;

/**
 * The borrower portal (docs/verification/portal.md): a token in the path is the only credential. It
 * is looked up by its SHA-256 alone (the primary key), never compared as text, and never logged.
 */
@Injectable()
export class PortalService {
  constructor(
    private readonly transactions: Transactions,
    private readonly tokens: CaseUploadTokensRepository,
    private readonly cases: CasesRepository,
    private readonly moves: CaseMoves,
    private readonly documents: DocumentsService,
    private readonly config: VerificationConfig,
    private readonly tokenLookup: UploadTokenLookupRepository,
  ) {}

  /**
   * Largest file the portal takes: the documents area's DOCUMENT_MAX_BYTES, the one setting both the
   * portal and signed uploads obey (the gateway's body cap of the upload path is above it).
   */
  get maxFileBytes(): number {
    return this.config.DOCUMENT_MAX_BYTES;
  }

  /** The same limit for the page's hint, in MiB, rounded down to a tenth so it never promises more. */
  get maxFileMb(): number {
    return Math.floor((this.config.DOCUMENT_MAX_BYTES / (1024 * 1024)) * 10) / 10;
  }

  /** The link's state for its page; an unknown or malformed token is `invalid` and nothing more. */
  async resolve(token: string): Promise<ResolvedLink> {
    const row = UPLOAD_TOKEN_PATTERN.test(token)
      ? await this.tokenLookup.byHash(hashUploadToken(token))
      : null;
    const c = row ? await this.cases.get(row.organizationId, row.caseId) : null;
    const state = linkStateOf(row, c?.status ?? null, new Date());
    // An unknown token learns nothing about any case, not even that one exists.
    return state === 'invalid' ? { state, token: null, case: null } : { state, token: row, case: c };
  }

  /** The open link, or the error its state answers (404 unknown, 410 used, expired or closed). */
  async open(token: string): Promise<OpenLink> {
    const link = await this.resolve(token);
    if (link.state !== 'open') throw portalError(LINK_STATE_ERROR[link.state]);
    return link as OpenLink;
  }

  /**
   * Finish: consumes the token and retires the case's other unused tokens, in one transaction with the
   * token and case rows locked (a second Finish, or a cancel, waits and then sees the result). The case
   * must have received a document: finishing an empty upload would leave it waiting with no link.
   */
  async finish(token: string): Promise<FinishedView> {
    if (!UPLOAD_TOKEN_PATTERN.test(token)) throw portalError(PortalError.LINK_NOT_FOUND);
    const hash = hashUploadToken(token);
    return this.transactions.run(async (tx) => {
      const row = await this.tokenLookup.lockByHash(hash, tx);
      if (!row) throw portalError(PortalError.LINK_NOT_FOUND);
      const c = await this.moves.lock(tx, row.organizationId, row.caseId);
      const now = new Date();
      const state = linkStateOf(row, c.status, now);
      if (state !== 'open') throw portalError(LINK_STATE_ERROR[state]);
      if (c.status !== 'DocumentsReceived') throw portalError(PortalError.NOTHING_UPLOADED);
      await this.tokens.useAll(row.organizationId, row.caseId, now, tx);
      return { finishedAt: now.toISOString() };
    });
  }

  /**
   * The page's upload headers, checked: the kind must be one the page offers for the applicant type,
   * the file name (percent-encoded, as the page sends it) 1..200 characters without control characters;
   * only its last path segment is kept. Without a name the kind stands in for it.
   */
  uploadInput(
    link: OpenLink,
    kind: string | undefined,
    encodedName: string | undefined,
    contentType: string | undefined,
  ): PortalUploadInput {
    const kinds = portalKindsOf(link.case.applicantType);
    const k = kinds.find((x) => x === kind);
    if (!k) throw portalError(PortalError.DOCUMENT_KIND_INVALID);
    let fileName: string = k;
    if (encodedName !== undefined && encodedName !== '') {
      try {
        fileName = decodeURIComponent(encodedName);
      } catch {
        throw portalError(PortalError.FILE_NAME_INVALID);
      }
      fileName = fileName.split(/[\\/]/).pop() ?? '';
      if (
        !fileName ||
        [...fileName].length > MAX_FILE_NAME ||
        CONTROL.test(fileName) ||
        !fileName.isWellFormed()
      )
        throw portalError(PortalError.FILE_NAME_INVALID);
    }
    const declaredContentType = (contentType ?? 'application/octet-stream')
      .split(';')[0]
      .trim()
      .toLowerCase();
    return { kind: k, fileName, declaredContentType: declaredContentType || 'application/octet-stream' };
  }

  /**
   * Stores the file through the documents area (source `applicant`): it sniffs and stores the bytes,
   * emits `document.uploaded` and moves the case to DocumentsReceived. The case comes from the token's
   * row, never from the request.
   */
  async upload(link: OpenLink, input: PortalUploadInput & { body: Buffer }) {
    if (input.body.length === 0) throw portalError(PortalError.FILE_EMPTY);
    const doc = await this.documents.receive({
      organizationId: link.token.organizationId,
      caseId: link.case.id,
      kind: input.kind,
      source: 'applicant',
      fileName: input.fileName,
      declaredContentType: input.declaredContentType,
      body: input.body,
    });
    return {
      documentId: doc.id,
      kind: doc.kind,
      fileName: doc.fileName ?? input.fileName,
      sizeBytes: input.body.length,
    };
  }

  /** What the borrower already uploaded to the case through the portal, oldest first, for the page. */
  async uploaded(link: OpenLink): Promise<UploadedItem[]> {
    const { items } = await this.documents.list(link.token.organizationId, link.case.id);
    return items
      .filter((d) => d.source === 'applicant' && d.uploadedAt !== null)
      .sort((a, b) => a.createdAt.localeCompare(b.createdAt))
      .map((d) => ({ kind: d.kind, fileName: d.fileName ?? d.kind }));
  }

  /** A JSON body: the page sends files as they are, never as JSON. */
  notAFile() {
    return portalError(PortalError.FILE_TYPE_NOT_ALLOWED);
  }
}
