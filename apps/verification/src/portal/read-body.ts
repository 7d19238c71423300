import type { IncomingMessage } from 'node:http';
import { DocumentsError, documentsError } from '../documents/documents.errors';
import { PortalError, portalError } from './portal.errors';

/**
 * A raw request body (the file's bytes) collected up to `maxBytes`, the documents area's
 * DOCUMENT_MAX_BYTES: the portal takes what the documents area stores, and a file over it answers that
 * area's DOCUMENT_TOO_LARGE (413), as it would if it were read in full. A declared Content-Length over the
 * limit is refused before a byte is read; a chunked body is counted as it arrives and refused at the
 * limit; a client that goes away mid-upload is UPLOAD_ABORTED, never a 500.
 */
export function readBody(req: IncomingMessage, maxBytes: number): Promise<Buffer> {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > maxBytes)
    return Promise.reject(documentsError(DocumentsError.TOO_LARGE, { maxBytes }));
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
        // Stop buffering; the rest of the body is drained and dropped so the answer can be sent.
        settle(() => reject(documentsError(DocumentsError.TOO_LARGE, { maxBytes })));
        req.resume();
        return;
      }
      chunks.push(chunk);
    };
    req.on('data', onData);
    req.once('end', () => settle(() => resolve(Buffer.concat(chunks, size))));
    req.once('aborted', () => settle(() => reject(portalError(PortalError.UPLOAD_ABORTED))));
    req.once('error', () => settle(() => reject(portalError(PortalError.UPLOAD_ABORTED))));
    req.once('close', () => {
      if (!req.readableEnded) settle(() => reject(portalError(PortalError.UPLOAD_ABORTED)));
    });
  });
}
