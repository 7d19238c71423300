import { createHmac, timingSafeEqual } from 'node:crypto';

/** Development default of DOCUMENT_UPLOAD_SIGNING_SECRET: refused when set in production. */
export const DEV_DOCUMENT_UPLOAD_SIGNING_SECRET = 'dev-only-verification-document-upload-signing-secret';

export interface SignedUpload {
  method: 'PUT';
  documentId: string;
  /** Unix seconds after which the URL no longer works. */
  expires: number;
  /** The one Content-Type the upload must carry. */
  contentType: string;
}

/**
 * hex(HMAC-SHA256(secret, "PUT\n<documentId>\n<expires>\n<contentType>")) (docs/verification/documents.md,
 * "Signed upload URL"): one field per line, so no two different uploads sign the same text.
 */
export function signUpload(secret: string, u: SignedUpload): string {
  return createHmac('sha256', secret)
    .update([u.method, u.documentId, String(u.expires), u.contentType].join('\n'))
    .digest('hex');
}

const HEX64 = /^[0-9a-f]{64}$/;

/** Compares in constant time; anything but 64 lower-case hex digits is simply wrong. */
export function uploadSignatureValid(secret: string, u: SignedUpload, presented: string): boolean {
  if (!HEX64.test(presented)) return false;
  return timingSafeEqual(Buffer.from(signUpload(secret, u), 'hex'), Buffer.from(presented, 'hex'));
}

/** `<origin>/api/v1/document-uploads/<id>?expires=<unix>&signature=<hex>`. */
export function uploadUrl(origin: string, u: SignedUpload, signature: string): string {
  const url = new URL(`/api/v1/document-uploads/${u.documentId}`, origin);
  url.searchParams.set('expires', String(u.expires));
  url.searchParams.set('signature', signature);
  return url.toString();
}
