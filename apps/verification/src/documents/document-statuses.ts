/**
 * The document status machine (docs/verification/documents.md, "Statuses"). The table is the single
 * source of the allowed moves: DocumentMoves refuses any other with DOCUMENT_TRANSITION_NOT_ALLOWED (409).
 */
export const DOCUMENT_STATUSES = [
  /** A signed upload URL was issued; no bytes yet. */
  'AwaitingUpload',
  /** The bytes are stored; waiting for the orchestrator. */
  'Uploaded',
  /** Claimed by the orchestrator (under a lease). */
  'Processing',
  'Accepted',
  'Rejected',
  /** The signed upload URL lapsed unused. */
  'Expired',
] as const;

export type DocumentStatus = (typeof DOCUMENT_STATUSES)[number];

export const DOCUMENT_TRANSITIONS: Readonly<Record<DocumentStatus, readonly DocumentStatus[]>> = {
  AwaitingUpload: ['Uploaded', 'Expired'],
  Uploaded: ['Processing', 'Rejected'],
  // Back to Uploaded: a run that crashed (its lease lapsed) is retried.
  Processing: ['Accepted', 'Rejected', 'Uploaded'],
  Accepted: [],
  Rejected: [],
  Expired: [],
};

export const isDocumentStatus = (s: string): s is DocumentStatus =>
  (DOCUMENT_STATUSES as readonly string[]).includes(s);

export const canMoveDocument = (from: DocumentStatus, to: DocumentStatus): boolean =>
  DOCUMENT_TRANSITIONS[from].includes(to);

/** Statuses no move leaves. */
export const isFinalDocumentStatus = (s: DocumentStatus): boolean => DOCUMENT_TRANSITIONS[s].length === 0;

/** What a document is (the caller says; the checks compare it with the content). */
export const DOCUMENT_KINDS = [
  'Passport',
  'IdCard',
  'DriverLicense',
  'ResidencePermit',
  'Selfie',
  'ProofOfAddress',
  'CompanyRegistration',
  'Other',
] as const;

export type DocumentKind = (typeof DOCUMENT_KINDS)[number];

export const isDocumentKind = (s: string): s is DocumentKind =>
  (DOCUMENT_KINDS as readonly string[]).includes(s);

/** Who sent the bytes: the borrower portal, or the caller's system through a signed upload URL. */
export const DOCUMENT_SOURCES = ['applicant', 'api'] as const;
export type DocumentSource = (typeof DOCUMENT_SOURCES)[number];

/**
 * Content types accepted (the declared one; the orchestrator's file-type step then sniffs the bytes):
 * the formats the checks read (PDF, JPEG, PNG, HEIC/HEIF, WebP). `image/jpg` and `image/pjpeg` are
 * taken as `image/jpeg`.
 */
export const DOCUMENT_CONTENT_TYPES = [
  'application/pdf',
  'image/jpeg',
  'image/png',
  'image/heic',
  'image/heif',
  'image/webp',
] as const;

const CONTENT_TYPE_ALIASES: Record<string, string> = {
  'image/jpg': 'image/jpeg',
  'image/pjpeg': 'image/jpeg',
};

/** `Image/JPG; name=x` -> `image/jpeg`; null when not one of DOCUMENT_CONTENT_TYPES. */
export function acceptedContentType(declared: string | undefined | null): string | null {
  const base = (declared ?? '').split(';')[0].trim().toLowerCase();
  const t = CONTENT_TYPE_ALIASES[base] ?? base;
  return (DOCUMENT_CONTENT_TYPES as readonly string[]).includes(t) ? t : null;
}

/** `sqlIn('kind', ['A', 'B'])` -> `kind IN ('A', 'B')` for CHECK constraints (values are constants here). */
export const sqlValues = (column: string, values: readonly string[]): string =>
  `${column} IN (${values.map((v) => `'${v}'`).join(', ')})`;
