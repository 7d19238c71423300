import { defineErrors } from '@platform/envelope';

/**
 * The documents area's error reasons (docs/verification/documents.md, "Errors"). Texts:
 * apps/verification/src/i18n/<lang>/documents.json, key `documents.errors.<reason>`. An unknown case (or
 * another organization's) answers the cases area's CASE_NOT_FOUND.
 */
export enum DocumentsError {
  NOT_FOUND = 'DOCUMENT_NOT_FOUND',
  TRANSITION_NOT_ALLOWED = 'DOCUMENT_TRANSITION_NOT_ALLOWED',
  CASE_NOT_ACCEPTING = 'DOCUMENT_CASE_NOT_ACCEPTING',
  KIND_INVALID = 'DOCUMENT_KIND_INVALID',
  FILE_NAME_INVALID = 'DOCUMENT_FILE_NAME_INVALID',
  CONTENT_TYPE_NOT_ALLOWED = 'DOCUMENT_CONTENT_TYPE_NOT_ALLOWED',
  CONTENT_ENCODING_NOT_ALLOWED = 'DOCUMENT_CONTENT_ENCODING_NOT_ALLOWED',
  TOO_LARGE = 'DOCUMENT_TOO_LARGE',
  EMPTY = 'DOCUMENT_EMPTY',
  UPLOAD_ABORTED = 'DOCUMENT_UPLOAD_ABORTED',
  SIGNATURE_INVALID = 'DOCUMENT_UPLOAD_SIGNATURE_INVALID',
  URL_EXPIRED = 'DOCUMENT_UPLOAD_URL_EXPIRED',
  CONTENT_TYPE_MISMATCH = 'DOCUMENT_UPLOAD_CONTENT_TYPE_MISMATCH',
  ALREADY_UPLOADED = 'DOCUMENT_ALREADY_UPLOADED',
  CONTENT_NOT_AVAILABLE = 'DOCUMENT_CONTENT_NOT_AVAILABLE',
  UPLOADS_UNAVAILABLE = 'DOCUMENT_UPLOADS_UNAVAILABLE',
  STORAGE_UNAVAILABLE = 'DOCUMENT_STORAGE_UNAVAILABLE',
}

const STATUS: Record<DocumentsError, number> = {
  [DocumentsError.NOT_FOUND]: 404,
  [DocumentsError.TRANSITION_NOT_ALLOWED]: 409,
  [DocumentsError.CASE_NOT_ACCEPTING]: 409,
  [DocumentsError.KIND_INVALID]: 400,
  [DocumentsError.FILE_NAME_INVALID]: 400,
  [DocumentsError.CONTENT_TYPE_NOT_ALLOWED]: 415,
  [DocumentsError.CONTENT_ENCODING_NOT_ALLOWED]: 415,
  [DocumentsError.TOO_LARGE]: 413,
  [DocumentsError.EMPTY]: 400,
  [DocumentsError.UPLOAD_ABORTED]: 400,
  [DocumentsError.SIGNATURE_INVALID]: 403,
  [DocumentsError.URL_EXPIRED]: 403,
  [DocumentsError.CONTENT_TYPE_MISMATCH]: 403,
  [DocumentsError.ALREADY_UPLOADED]: 409,
  [DocumentsError.CONTENT_NOT_AVAILABLE]: 409,
  [DocumentsError.UPLOADS_UNAVAILABLE]: 503,
  [DocumentsError.STORAGE_UNAVAILABLE]: 503,
};

export const documentsError = defineErrors<DocumentsError>(
  Object.fromEntries(
    Object.values(DocumentsError).map((c) => [c, { status: STATUS[c], messageKey: `documents.errors.${c}` }]),
  ) as Record<DocumentsError, { status: number; messageKey: string }>,
);
