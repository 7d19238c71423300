import type { IncomingMessage } from 'node:http';

/** What a check request carries: the PDF's bytes, or only its SHA-256. */
export type CheckInput = { kind: 'pdf'; bytes: Buffer } | { kind: 'sha256'; sha256: string };

export type UploadProblem = 'EMPTY' | 'TOO_LARGE' | 'UNSUPPORTED_MEDIA' | 'MALFORMED' | 'ABORTED';

export class UploadError extends Error {
  constructor(readonly problem: UploadProblem) {
    super(problem);
  }
}

const SHA256_HEX = /^[0-9a-f]{64}$/i;

/**
 * Reads a request body that the app's JSON parser left alone (any other content type), at most
 * `limit` bytes: a larger declared or streamed body is refused without reading the rest.
 */
export function readRawBody(req: IncomingMessage, limit: number): Promise<Buffer> {
  const encoding = String(req.headers['content-encoding'] ?? 'identity').toLowerCase();
  if (encoding !== 'identity') return Promise.reject(new UploadError('UNSUPPORTED_MEDIA'));
  if (Number(req.headers['content-length'] ?? 0) > limit) return Promise.reject(new UploadError('TOO_LARGE'));
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const fail = (problem: UploadProblem) => {
      req.removeAllListeners('data');
      req.resume();
      reject(new UploadError(problem));
    };
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > limit) return fail('TOO_LARGE');
      chunks.push(c);
    });
    req.on('end', () => resolve(Buffer.concat(chunks)));
    // A client that goes away mid-body: 'close' before the body was complete (a no-op once resolved).
    req.on('close', () => {
      if (!req.complete) fail('ABORTED');
    });
    req.on('error', () => fail('ABORTED'));
  });
}

/** The media type of a Content-Type header, lower case, without parameters. */
export const mediaType = (contentType: string | undefined) =>
  (contentType ?? '').split(';')[0].trim().toLowerCase();

function boundaryOf(contentType: string): string | undefined {
  const m = /;\s*boundary=(?:"([^"]{1,70})"|([^\s;]{1,70}))/i.exec(contentType);
  return m?.[1] ?? m?.[2];
}

/**
 * The first file part of a multipart/form-data body (what the public page's upload form posts):
 * the verification page has no script, so the browser sends the form as it is. Only what a browser
 * sends is understood: CRLF line breaks, a boundary from the header, parts with headers.
 */
export function fileFromMultipart(body: Buffer, contentType: string): Buffer {
  const boundary = boundaryOf(contentType);
  if (!boundary) throw new UploadError('MALFORMED');
  const delimiter = Buffer.from(`--${boundary}`);
  let at = body.indexOf(delimiter);
  while (at !== -1) {
    const headersStart = at + delimiter.length + 2;
    if (body.subarray(at + delimiter.length, at + delimiter.length + 2).toString() === '--') break;
    const headersEnd = body.indexOf('\r\n\r\n', headersStart);
    if (headersEnd === -1) break;
    const next = body.indexOf(Buffer.from(`\r\n--${boundary}`), headersEnd + 4);
    if (next === -1) break;
    const headers = body.subarray(headersStart, headersEnd).toString('latin1');
    if (/content-disposition:[^\r\n]*\bfilename=/i.test(headers)) return body.subarray(headersEnd + 4, next);
    at = next + 2;
  }
  throw new UploadError('MALFORMED');
}

/**
 * A check request's input by its content type: JSON `{ "sha256": "<hex>" }` (already parsed by the app),
 * a form upload (multipart/form-data), or the PDF itself as the body (application/pdf or
 * application/octet-stream).
 */
export async function checkInput(
  req: IncomingMessage & { body?: unknown },
  limit: number,
): Promise<CheckInput> {
  const type = mediaType(req.headers['content-type']);
  if (type === 'application/json') {
    const sha = (req.body as { sha256?: unknown } | undefined)?.sha256;
    if (typeof sha !== 'string' || !SHA256_HEX.test(sha)) throw new UploadError('MALFORMED');
    return { kind: 'sha256', sha256: sha.toLowerCase() };
  }
  if (type !== 'application/pdf' && type !== 'application/octet-stream' && type !== 'multipart/form-data')
    throw new UploadError('UNSUPPORTED_MEDIA');
  const raw = await readRawBody(req, limit);
  const bytes =
    type === 'multipart/form-data' ? fileFromMultipart(raw, String(req.headers['content-type'])) : raw;
  if (!bytes.length) throw new UploadError('EMPTY');
  return { kind: 'pdf', bytes };
}

/** A urlencoded form's field (the public page's password form), read with a small limit. */
export async function formField(
  req: IncomingMessage,
  name: string,
  limit: number,
): Promise<string | undefined> {
  const raw = await readRawBody(req, limit);
  const value = new URLSearchParams(raw.toString('utf8')).get(name);
  return value ?? undefined;
}
