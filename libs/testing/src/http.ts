import type { INestApplication } from '@nestjs/common';
import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';

/** Starts a Nest app on a free loopback port and returns its base URL. */
export async function listen(app: INestApplication): Promise<string> {
  await app.listen(0, '127.0.0.1');
  const addr = app.getHttpServer().address() as AddressInfo;
  return `http://127.0.0.1:${addr.port}`;
}

export interface JsonResponse<T = unknown> {
  status: number;
  headers: Headers;
  body: T;
}

/**
 * A request on a kept-alive socket the server had already closed: fetch reuses an idle connection the
 * server timed out while this process was blocked (a spawnSync'd admin command, a loaded machine
 * stalling past the keep-alive timeout), and fails before any byte of an answer. A request that is
 * safe to send twice (an idempotent method, RFC 9110 9.2.2, or one carrying an Idempotency-Key, which
 * the platform answers once) is sent once more on a new connection, as RFC 9112 9.3.1 allows and as
 * every HTTP client does; anything else fails as it is.
 */
function staleSocket(err: unknown, method: string, headers: Record<string, string> = {}): boolean {
  const cause = (err as { cause?: { code?: string } }).cause;
  if (cause?.code !== 'UND_ERR_SOCKET') return false;
  const keyed = Object.keys(headers).some((h) => h.toLowerCase() === 'idempotency-key');
  return keyed || ['GET', 'HEAD', 'PUT', 'DELETE', 'OPTIONS'].includes(method);
}

/** fetch + JSON, keeping the status and headers for assertions. */
export async function request<T = Record<string, unknown>>(
  url: string,
  init: { method?: string; headers?: Record<string, string>; body?: unknown } = {},
): Promise<JsonResponse<T>> {
  const method = init.method ?? (init.body === undefined ? 'GET' : 'POST');
  try {
    return await requestOnce<T>(url, init, method);
  } catch (err) {
    if (!staleSocket(err, method, init.headers)) throw err;
    return requestOnce<T>(url, init, method);
  }
}

async function requestOnce<T>(
  url: string,
  init: { method?: string; headers?: Record<string, string>; body?: unknown },
  method: string,
): Promise<JsonResponse<T>> {
  const res = await fetch(url, {
    method,
    headers: { ...(init.body === undefined ? {} : { 'content-type': 'application/json' }), ...init.headers },
    body:
      init.body === undefined
        ? undefined
        : typeof init.body === 'string'
          ? init.body
          : JSON.stringify(init.body),
  });
  const text = await res.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    /* not JSON */
  }
  return { status: res.status, headers: res.headers, body: body as T };
}

export interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  /** The body parsed as JSON, or undefined when it is not JSON. */
  json: Record<string, unknown> | undefined;
}

/**
 * One HTTP request with full control over the bytes: a Buffer body is sent as is (invalid UTF-8
 * included) and headers are not checked for size, so hostile-input tests can send what fetch refuses.
 */
export function rawRequest(
  url: string,
  init: {
    method?: string;
    headers?: Record<string, string>;
    body?: Buffer | string;
    timeoutMs?: number;
  } = {},
): Promise<RawResponse> {
  const u = new URL(url);
  return new Promise((resolveResponse, reject) => {
    const req = httpRequest(
      {
        hostname: u.hostname,
        port: u.port,
        path: `${u.pathname}${u.search}`,
        method: init.method ?? (init.body === undefined ? 'GET' : 'POST'),
        headers: {
          ...(init.body === undefined
            ? {}
            : {
                'content-type': 'application/json',
                // Node frames a DELETE (or OPTIONS) body with neither Content-Length nor chunked
                // encoding: the server would read the body as a second request.
                'content-length': String(Buffer.byteLength(init.body)),
              }),
          ...init.headers,
        },
        agent: false,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let json: Record<string, unknown> | undefined;
          try {
            json = JSON.parse(text) as Record<string, unknown>;
          } catch {
            json = undefined;
          }
          resolveResponse({ status: res.statusCode ?? 0, headers: res.headers, text, json });
        });
        res.on('error', reject);
      },
    );
    req.setTimeout(init.timeoutMs ?? 15000, () =>
      req.destroy(new Error(`no answer in ${init.timeoutMs ?? 15000} ms`)),
    );
    req.on('error', (err: NodeJS.ErrnoException) => {
      // A server that refuses a body early (429, 413) answers and closes: writing the rest may fail
      // with EPIPE/ECONNRESET before the answer is read. Give the answer a moment before failing.
      if (init.body !== undefined && (err.code === 'EPIPE' || err.code === 'ECONNRESET')) {
        setTimeout(() => reject(err), 1000).unref();
        return;
      }
      reject(err);
    });
    req.end(init.body);
  });
}
