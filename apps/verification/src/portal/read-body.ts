import type { IncomingMessage } from 'node:http';
import { PortalError, portalError } from './portal.errors';

/** Largest file the portal takes: the gateway's body limit of the upload path (libs/registry). */
export const PORTAL_MAX_FILE_BYTES = 25 * 1024 * 1024;

/**
 * A raw request body (the file's bytes) collected up to `maxBytes`. A declared Content-Length over the
 * limit is refused before a byte is read; a chunked body is counted as it arrives and refused at the
 * limit; a client that goes away mid-upload is UPLOAD_ABORTED, never a 500.
 */
export function readBody(req: IncomingMessage, maxBytes = PORTAL_MAX_FILE_BYTES): Promise<Buffer> {
  const maxMb = Math.floor(maxBytes / (1024 * 1024));
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > maxBytes)
    return Promise.reject(portalError(PortalError.FILE_TOO_LARGE, { maxMb }));
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
        settle(() => reject(portalError(PortalError.FILE_TOO_LARGE, { maxMb })));
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
