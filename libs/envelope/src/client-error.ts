import { randomUUID } from 'node:crypto';
import type { Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { STATUS_CODES } from 'node:http';
import { CommonError, commonError } from './common-errors';
import type { DomainError } from './domain-error';
import type { Envelope, ErrorValue } from './envelope';

/** What the handler needs of a request that Node could not parse: its language and request id. */
export interface UnparsedRequest {
  headers: Record<string, string>;
  requestId: string;
  method: string;
  path: string;
}

export type RenderError = (
  error: DomainError,
  req: UnparsedRequest,
) => { status: number; body: Envelope<ErrorValue> };

const SAFE_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** Reads one header from the bytes Node received before it gave up (they may be cut anywhere). */
function rawHeader(raw: string, name: string): string | undefined {
  const m = new RegExp(`\\r\\n${name}:[ \\t]*([^\\r\\n]{1,200})`, 'i').exec(raw);
  return m?.[1].trim();
}

function errorFor(code: string | undefined): DomainError {
  switch (code) {
    case 'HPE_HEADER_OVERFLOW':
      return commonError(CommonError.HEADERS_TOO_LARGE);
    case 'ERR_HTTP_REQUEST_TIMEOUT':
    case 'HPE_REQUEST_TIMEOUT':
      return commonError(CommonError.REQUEST_TIMEOUT);
    default:
      return commonError(CommonError.BAD_REQUEST);
  }
}

/**
 * Node answers requests it cannot parse (headers over `maxHeaderSize`, a broken request line, a
 * header timeout) itself, with a bare status and no body. This answers them like any other error:
 * the envelope, localised from the Language-Code / Accept-Language bytes that did arrive, with a
 * request id, and the connection closed (its framing can no longer be trusted).
 */
export function installClientErrorHandler(
  server: Server,
  render: RenderError,
  /** The app's own headers on every answer (lending's Api-Version). */
  extraHeaders: Record<string, string> = {},
): void {
  server.on('clientError', (err: NodeJS.ErrnoException & { rawPacket?: Buffer }, socket: Duplex) => {
    if (err.code === 'ECONNRESET' || !socket.writable) {
      socket.destroy();
      return;
    }
    const raw = err.rawPacket ? err.rawPacket.toString('latin1') : '';
    const given = rawHeader(raw, 'x-request-id');
    const requestId = given && SAFE_ID.test(given) ? given : randomUUID();
    const headers: Record<string, string> = {};
    for (const name of ['language-code', 'accept-language']) {
      const v = rawHeader(raw, name);
      if (v) headers[name] = v;
    }
    const line = /^([A-Z]{1,16}) (\S{0,200})/.exec(raw);
    const { status, body } = render(errorFor(err.code), {
      headers,
      requestId,
      method: line?.[1] ?? '',
      path: (line?.[2] ?? '').split('?')[0],
    });
    const payload = Buffer.from(JSON.stringify(body), 'utf8');
    socket.end(
      `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? ''}\r\n` +
        'Content-Type: application/json; charset=utf-8\r\n' +
        `Content-Length: ${payload.length}\r\n` +
        `X-Request-Id: ${requestId}\r\n` +
        Object.entries(extraHeaders)
          .map(([name, value]) => `${name}: ${value}\r\n`)
          .join('') +
        'Connection: close\r\n\r\n' +
        payload.toString('utf8'),
    );
  });
}
