import { defineErrors } from '@platform/envelope';

/**
 * The borrower portal's error reasons (docs/verification/portal.md, "Errors"). Texts:
 * apps/verification/src/i18n/<lang>/portal.json, key `portal.errors.<reason>`. The four link states
 * (not found, expired, used, closed) are also pages of their own for a browser that opens the link.
 */
export enum PortalError {
  /** `POST .../upload-link` on a case that no longer takes documents. */
  UPLOAD_LINK_NOT_ALLOWED = 'UPLOAD_LINK_NOT_ALLOWED',
  LINK_NOT_FOUND = 'PORTAL_LINK_NOT_FOUND',
  LINK_EXPIRED = 'PORTAL_LINK_EXPIRED',
  LINK_USED = 'PORTAL_LINK_USED',
  CASE_CLOSED = 'PORTAL_CASE_CLOSED',
  DOCUMENT_KIND_INVALID = 'PORTAL_DOCUMENT_KIND_INVALID',
  FILE_NAME_INVALID = 'PORTAL_FILE_NAME_INVALID',
  FILE_EMPTY = 'PORTAL_FILE_EMPTY',
  FILE_TYPE_NOT_ALLOWED = 'PORTAL_FILE_TYPE_NOT_ALLOWED',
  UPLOAD_ABORTED = 'PORTAL_UPLOAD_ABORTED',
  NOTHING_UPLOADED = 'PORTAL_NOTHING_UPLOADED',
}

const STATUS: Record<PortalError, number> = {
  [PortalError.UPLOAD_LINK_NOT_ALLOWED]: 409,
  [PortalError.LINK_NOT_FOUND]: 404,
  [PortalError.LINK_EXPIRED]: 410,
  [PortalError.LINK_USED]: 410,
  [PortalError.CASE_CLOSED]: 410,
  [PortalError.DOCUMENT_KIND_INVALID]: 400,
  [PortalError.FILE_NAME_INVALID]: 400,
  [PortalError.FILE_EMPTY]: 400,
  [PortalError.FILE_TYPE_NOT_ALLOWED]: 415,
  [PortalError.UPLOAD_ABORTED]: 400,
  [PortalError.NOTHING_UPLOADED]: 409,
};

export const portalError = defineErrors<PortalError>(
  Object.fromEntries(
    Object.values(PortalError).map((c) => [c, { status: STATUS[c], messageKey: `portal.errors.${c}` }]),
  ) as Record<PortalError, { status: number; messageKey: string }>,
);
