import type { IncomingMessage } from 'node:http';
import { DocumentsError, documentsError } from './documents.errors';

/**
 * The raw body of a signed upload (the app's JSON parser leaves other media types alone), at most
 * `maxBytes`: a larger declared length is refused before a byte is read, a chunked body is counted as
 * it arrives and refused at the limit (the rest is drained and dropped so the answer can be sent), a
 * client that goes away mid-body is DOCUMENT_UPLOAD_ABORTED, never a 500.
 */
export function readUploadBody(req: IncomingMessage, maxBytes: number): Promise<Buffer> {
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
    req.once('aborted', () => settle(() => reject(documentsError(DocumentsError.UPLOAD_ABORTED))));
    req.once('error', () => settle(() => reject(documentsError(DocumentsError.UPLOAD_ABORTED))));
    req.once('close', () => {
      if (!req.readableEnded) settle(() => reject(documentsError(DocumentsError.UPLOAD_ABORTED)));
    });
  });
}
