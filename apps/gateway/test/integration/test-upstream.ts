import { createServer, request as httpRequest, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ROUTED_SERVICES } from '@platform/registry';

export interface Seen {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  /** Body bytes received before the request ended or was cut off. */
  bytes: number;
  /** False when the gateway cut the request off before its end. */
  completed: boolean;
}

/**
 * A real HTTP upstream whose answer the query string chooses, counting every request it gets:
 * `status`, `cc` (Cache-Control), `vary`, `etag`, `cookie=1`, `drop=1` (half an answer), `delay` (ms before answering; `never`
 * answers nothing), `size` (body bytes), `csp`/`xfo`/`acao` (headers a service might set itself).
 * The body is JSON naming the request's number, so tests can tell a cached answer from a fresh one.
 */
export class TestUpstream {
  readonly seen: Seen[] = [];
  /** Services (first path segment) whose /health/ready answers 503, and those that never answer. */
  readonly down = new Set<string>();
  readonly silent = new Set<string>();
  private server?: Server;
  url = '';

  async start(): Promise<this> {
    this.server = createServer((req, res) => {
      const record: Seen = {
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        bytes: 0,
        completed: false,
      };
      this.seen.push(record);
      const n = this.seen.length;
      req.on('data', (c: Buffer) => (record.bytes += c.length));
      req.on('end', () => {
        record.completed = true;
        const q = new URL(req.url ?? '/', 'http://x').searchParams;
        const health = /\/health\/ready$/.exec(new URL(req.url ?? '/', 'http://x').pathname);
        const answer = () => {
          if (health) {
            // `/<service>/health/ready`: the gateway reaches each service under its own base path.
            const service = (req.url ?? '').split('/')[1];
            if (this.silent.has(service)) return;
            const down = this.down.has(service);
            res.writeHead(down ? 503 : 200, { 'content-type': 'application/json' });
            res.end(
              JSON.stringify({
                success: !down,
                code: down ? 503 : 200,
                error: down ? 'not ready' : null,
                value: { checks: { database: { status: down ? 'down' : 'up' }, broker: { status: 'up' } } },
              }),
            );
            return;
          }
          const headers: Record<string, string | string[]> = { 'content-type': 'application/json' };
          if (q.get('cc')) headers['cache-control'] = q.get('cc') as string;
          if (q.get('vary')) headers.vary = q.get('vary') as string;
          if (q.get('etag')) headers.etag = q.get('etag') as string;
          if (q.get('cookie')) headers['set-cookie'] = ['session=abc; HttpOnly'];
          if (q.get('csp')) headers['content-security-policy'] = q.get('csp') as string;
          if (q.get('xfo')) headers['x-frame-options'] = q.get('xfo') as string;
          if (q.get('acao')) headers['access-control-allow-origin'] = q.get('acao') as string;
          headers['x-powered-by'] = 'Express';
          const size = Number(q.get('size') ?? 0);
          const body = size
            ? Buffer.alloc(size, 'x')
            : Buffer.from(
                JSON.stringify({
                  n,
                  language: req.headers['language-code'] ?? req.headers['accept-language'] ?? null,
                  encoding: req.headers['accept-encoding'] ?? null,
                }),
              );
          if (q.get('drop')) {
            // Half an answer, then the connection goes away.
            res.writeHead(200, { ...headers, 'content-length': String(body.length + 100) });
            res.write(body);
            setTimeout(() => res.socket?.destroy(), 20).unref();
            return;
          }
          res.writeHead(Number(q.get('status') ?? 200), headers);
          res.end(req.method === 'HEAD' ? undefined : body);
        };
        const delay = q.get('delay');
        if (delay === 'never') return;
        if (delay) setTimeout(answer, Number(delay)).unref();
        else answer();
      });
    });
    this.server.on('upgrade', (req, socket) => {
      this.seen.push({
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        bytes: 0,
        completed: true,
      });
      socket.end('HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\r\n');
    });
    await new Promise<void>((r) => this.server?.listen(0, '127.0.0.1', r));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  /** Requests whose path (without the query) is `path`. */
  count(path: string): number {
    return this.seen.filter((s) => s.url.split('?')[0] === path).length;
  }

  last(): Seen {
    return this.seen[this.seen.length - 1];
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise((r) => this.server?.close(r));
  }
}

export interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  text: string;
  json: { success?: boolean; code?: number; error?: string; value?: Record<string, unknown> } & Record<
    string,
    unknown
  >;
}

/** One request with full control: source address, raw headers, a body sent in chunks. */
export function call(
  url: string,
  init: {
    method?: string;
    headers?: Record<string, string>;
    body?: Buffer | string;
    /** Sent as a chunked body, in these pieces. */
    chunks?: Buffer[];
    localAddress?: string;
  } = {},
): Promise<Answer> {
  const u = new URL(url);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: u.hostname,
        port: u.port,
        path: `${u.pathname}${u.search}`,
        method: init.method ?? 'GET',
        headers: init.headers,
        localAddress: init.localAddress,
        agent: false,
      },
      (res) => {
        const parts: Buffer[] = [];
        res.on('data', (c: Buffer) => parts.push(c));
        res.on('end', () => {
          const text = Buffer.concat(parts).toString();
          let json = {};
          try {
            json = JSON.parse(text) as object;
          } catch {
            /* not JSON */
          }
          resolve({ status: res.statusCode ?? 0, headers: res.headers, text, json });
        });
      },
    );
    const chunks = init.chunks;
    req.on('error', (err: NodeJS.ErrnoException) => {
      // A server that refuses a streamed body answers and stops reading: the next write may fail with
      // EPIPE/ECONNRESET before the answer is read. Wait a moment for the answer before failing.
      if (chunks && (err.code === 'EPIPE' || err.code === 'ECONNRESET')) {
        setTimeout(() => reject(err), 1000).unref();
        return;
      }
      reject(err);
    });
    if (chunks) {
      let i = 0;
      const next = () => {
        if (req.destroyed) return;
        if (i === chunks.length) return void req.end();
        req.write(chunks[i++], () => setImmediate(next));
      };
      next();
    } else {
      req.end(init.body);
    }
  });
}

/** Every service behind the gateway pointed at one test upstream (under /<service> when `perService`). */
export function upstreamEnv(base: string, perService = false): Record<string, string> {
  return Object.fromEntries(
    ROUTED_SERVICES.map((s) => [s.gateway.upstreamEnv, perService ? `${base}/${s.name}` : base]),
  );
}
