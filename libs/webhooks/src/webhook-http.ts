import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import type { PublicTarget } from '@platform/network';

export interface PostResult {
  status: number;
  /** The first `maxResponseBytes` of the body, as UTF-8 text. */
  body: string;
  truncated: boolean;
  location?: string;
}

export interface PostOptions {
  /** Time left for connect, TLS, request and response. */
  timeoutMs: number;
  maxResponseBytes: number;
}

export class WebhookTimeoutError extends Error {
  constructor(ms: number) {
    super(`no complete answer within ${ms} ms`);
    this.name = 'WebhookTimeoutError';
  }
}

/**
 * A lookup that answers the checked address whatever it is asked: the socket connects to the address
 * the SSRF guard approved, never to a second DNS answer (DNS rebinding), while TLS still verifies the
 * certificate against the host name (SNI, `servername`).
 */
function pinnedLookup(target: PublicTarget): LookupFunction {
  return (_hostname, options, callback) => {
    if ((options as { all?: boolean }).all) {
      (callback as unknown as (e: null, a: { address: string; family: number }[]) => void)(null, [
        { address: target.address, family: target.family },
      ]);
    } else {
      callback(null, target.address, target.family);
    }
  };
}

/**
 * One POST to a checked target. Redirects are never followed (Node's http does not follow; a 3xx is
 * returned like any other status and the worker counts it as a failure). No keep-alive agent: each
 * attempt opens its own connection to the address checked for it.
 */
export function postPinned(
  target: PublicTarget,
  headers: Record<string, string>,
  body: string,
  opts: PostOptions,
): Promise<PostResult> {
  return new Promise<PostResult>((resolve, reject) => {
    const https = target.url.protocol === 'https:';
    const literal = isIP(target.hostname) !== 0;
    let settled = false;
    const finish = (fn: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      fn();
    };
    const req = (https ? httpsRequest : httpRequest)(
      {
        protocol: target.url.protocol,
        hostname: target.hostname,
        port: target.port,
        path: `${target.url.pathname}${target.url.search}`,
        method: 'POST',
        agent: false,
        lookup: pinnedLookup(target),
        ...(https && !literal ? { servername: target.hostname } : {}),
        headers: {
          ...headers,
          'content-type': 'application/json',
          'content-length': String(Buffer.byteLength(body)),
          'user-agent': 'platform-webhooks/1',
        },
      },
      (res) => readLimited(res, opts.maxResponseBytes, (result) => finish(() => resolve(result))),
    );
    const timer = setTimeout(
      () => {
        finish(() => reject(new WebhookTimeoutError(opts.timeoutMs)));
        req.destroy();
      },
      Math.max(1, opts.timeoutMs),
    );
    req.on('error', (err) => finish(() => reject(err)));
    req.end(body);
  });
}

function readLimited(res: IncomingMessage, max: number, done: (r: PostResult) => void): void {
  const chunks: Buffer[] = [];
  let size = 0;
  let truncated = false;
  const location = typeof res.headers.location === 'string' ? res.headers.location : undefined;
  const complete = () => {
    const text = Buffer.concat(chunks)
      .subarray(0, max)
      .toString('utf8')
      // PostgreSQL text cannot hold NUL.
      .replaceAll('\u0000', '');
    done({ status: res.statusCode ?? 0, body: text, truncated, location });
  };
  res.on('data', (chunk: Buffer) => {
    if (truncated) return;
    chunks.push(chunk);
    size += chunk.length;
    if (size > max) {
      // Enough for the log: stop reading a large (or endless) body.
      truncated = true;
      complete();
      res.destroy();
    }
  });
  res.on('end', () => {
    if (!truncated) complete();
  });
  // A body cut off after the status arrived still leaves a status to record.
  res.on('error', () => {
    if (!truncated) complete();
  });
  res.on('aborted', () => {
    if (!truncated) complete();
  });
}
