import type { IncomingMessage } from 'node:http';
import { DocumentsError, documentsError } from './documents.errors';

/**
 * One rule for every upload (the signed upload URL's and the portal's): the bytes come as they are.
 * A `Content-Encoding` other than `identity` (gzip, br...) is DOCUMENT_CONTENT_ENCODING_NOT_ALLOWED:
 * the stored file, its size limit and its hash are those of the bytes sent, never of an encoding.
 */
export function refuseContentEncoding(contentEncoding: string | string[] | undefined): void {
  const encoding = String(contentEncoding ?? 'identity')
    .trim()
    .toLowerCase();
  if (encoding !== 'identity' && encoding !== '')
    throw documentsError(DocumentsError.CONTENT_ENCODING_NOT_ALLOWED);
}

/**
 * The raw body of an upload, a signed upload's or the portal's (the app's JSON parser leaves other
 * media types alone), at most `maxBytes` (DOCUMENT_MAX_BYTES or the document's own limit): a larger
 * declared length is DOCUMENT_TOO_LARGE before a byte is read, a chunked body is counted as it arrives
 * and refused at the limit (the rest is drained and dropped so the answer can be sent), a client that
 * goes away mid-body is `aborted()` (DOCUMENT_UPLOAD_ABORTED unless the caller names its own), never
 * a 500. An encoded body is refused first (`refuseContentEncoding`).
 */
export function readUploadBody(
  req: IncomingMessage,
  maxBytes: number,
  aborted: () => Error = () => documentsError(DocumentsError.UPLOAD_ABORTED),
): Promise<Buffer> {
  try {
    refuseContentEncoding(req.headers['content-encoding']);
  } catch (e) {
    return Promise.reject(e as Error);
  }
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > maxBytes)
    return Promise.reject(documentsError(DocumentsError.TOO_LARGE, { maxBytes }));
  if (req.readableEnded) return Promise.resolve(Buffer.alloc(0));
  return new Promise<Buffer>((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    const settle = (fn: () => void) => {
      if (settled) return;
      settled = true;
      req.off('data', onData);
      fn();
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxBytes) {
        settle(() => reject(documentsError(DocumentsError.TOO_LARGE, { maxBytes })));
        req.resume();
        return;
      }
      chunks.push(chunk);
    };
    req.on('data', onData);
    req.once('end', () => settle(() => resolve(Buffer.concat(chunks, size))));
    req.once('aborted', () => settle(() => reject(aborted())));
    req.once('error', () => settle(() => reject(aborted())));
    req.once('close', () => {
      if (!req.readableEnded) settle(() => reject(aborted()));
    });
  });
}
