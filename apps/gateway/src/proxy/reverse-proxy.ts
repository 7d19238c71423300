import {
  Agent,
  request as httpRequest,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type ServerResponse,
} from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { connect as netConnect, type Socket } from 'node:net';
import { connect as tlsConnect } from 'node:tls';
import type { Duplex } from 'node:stream';
import { REQUEST_ID_HEADER, resolveRequestId } from '@platform/envelope';
import { matchRoute, type RouteMatch, type Upstream } from './route-table';

const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-authenticate',
  'proxy-authorization',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
  'proxy-connection',
]);

export type ProxyFailure = 'unavailable' | 'timeout';

export interface ProxyOptions {
  upstreams: Record<Upstream, string>;
  timeoutMs: number;
  /** Writes the error envelope for a failed upstream call (the gateway localises it). */
  onFailure: (req: IncomingMessage, res: ServerResponse, failure: ProxyFailure, upstream: Upstream) => void;
}

function forwardHeaders(req: IncomingMessage, target: URL, requestId: string): IncomingHttpHeaders {
  const named = new Set(
    String(req.headers.connection ?? '')
      .split(',')
      .map((h) => h.trim().toLowerCase())
      .filter(Boolean),
  );
  const out: IncomingHttpHeaders = {};
  for (const [k, v] of Object.entries(req.headers)) {
    if (!HOP_BY_HOP.has(k) && !named.has(k)) out[k] = v;
  }
  const remote = req.socket.remoteAddress ?? '';
  out['x-forwarded-for'] = req.headers['x-forwarded-for']
    ? `${String(req.headers['x-forwarded-for'])}, ${remote}`
    : remote;
  out['x-forwarded-proto'] = String(
    req.headers['x-forwarded-proto'] ?? ('encrypted' in req.socket ? 'https' : 'http'),
  );
  out['x-forwarded-host'] = String(req.headers['x-forwarded-host'] ?? req.headers.host ?? '');
  out[REQUEST_ID_HEADER] = requestId;
  out.host = target.host;
  return out;
}

function responseHeaders(headers: IncomingHttpHeaders): IncomingHttpHeaders {
  return Object.fromEntries(Object.entries(headers).filter(([k]) => !HOP_BY_HOP.has(k)));
}

/**
 * A streaming reverse proxy: request and response bodies are piped, never buffered, so uploads, PDFs
 * and long-lived responses pass through at the speed of the slower side. Keep-alive agents per
 * upstream avoid a TCP handshake per call.
 */
export class ReverseProxy {
  private readonly httpAgent = new Agent({ keepAlive: true, maxSockets: 512 });
  private readonly httpsAgent = new HttpsAgent({ keepAlive: true, maxSockets: 512 });
  private readonly targets: Record<Upstream, URL>;

  constructor(private readonly opts: ProxyOptions) {
    this.targets = Object.fromEntries(
      Object.entries(opts.upstreams).map(([k, v]) => [k, new URL(v)]),
    ) as Record<Upstream, URL>;
  }

  match(url: string | undefined): RouteMatch | undefined {
    return url ? matchRoute(url) : undefined;
  }

  /** Express-style middleware: proxies matched routes, passes the rest to the gateway's own routes. */
  readonly middleware = (req: IncomingMessage, res: ServerResponse, next: () => void): void => {
    const m = this.match(req.url);
    if (!m) return next();
    this.forward(req, res, m);
  };

  private forward(req: IncomingMessage, res: ServerResponse, m: RouteMatch): void {
    const target = this.targets[m.rule.upstream];
    const requestId = resolveRequestId(req);
    res.setHeader('X-Request-Id', requestId);
    const secure = target.protocol === 'https:';
    const upstreamReq = (secure ? httpsRequest : httpRequest)({
      protocol: target.protocol,
      hostname: target.hostname,
      port: target.port || (secure ? 443 : 80),
      method: req.method,
      path: `${target.pathname.replace(/\/$/, '')}${m.upstreamPath}`,
      headers: forwardHeaders(req, target, requestId),
      agent: secure ? this.httpsAgent : this.httpAgent,
    });
    let failed = false;
    const fail = (failure: ProxyFailure) => {
      if (failed) return;
      failed = true;
      if (res.headersSent) res.destroy();
      else this.opts.onFailure(req, res, failure, m.rule.upstream);
    };
    // Idle timeout: reset by every byte in either direction, so a slow download is not cut off.
    upstreamReq.setTimeout(this.opts.timeoutMs, () => {
      fail('timeout');
      upstreamReq.destroy();
    });
    upstreamReq.on('error', () => fail('unavailable'));
    upstreamReq.on('response', (upstreamRes) => {
      res.writeHead(
        upstreamRes.statusCode ?? 502,
        upstreamRes.statusMessage,
        responseHeaders(upstreamRes.headers),
      );
      upstreamRes.pipe(res);
      upstreamRes.on('error', () => res.destroy());
    });
    // A caller that goes away cancels the upstream call.
    res.on('close', () => {
      if (!res.writableFinished) upstreamReq.destroy();
    });
    req.pipe(upstreamReq);
  }

  /** Forwards an HTTP Upgrade (WebSocket) as a raw byte tunnel once the upstream accepts it. */
  readonly upgrade = (req: IncomingMessage, socket: Duplex, head: Buffer): void => {
    const m = this.match(req.url);
    if (!m) {
      socket.end('HTTP/1.1 404 Not Found\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
      return;
    }
    const target = this.targets[m.rule.upstream];
    const requestId = resolveRequestId(req);
    const secure = target.protocol === 'https:';
    const port = Number(target.port || (secure ? 443 : 80));
    const onConnect = () => {
      const headers = forwardHeaders(req, target, requestId);
      // Upgrade requests must keep their Connection/Upgrade headers.
      headers.connection = 'Upgrade';
      headers.upgrade = req.headers.upgrade;
      const lines = [`${req.method} ${target.pathname.replace(/\/$/, '')}${m.upstreamPath} HTTP/1.1`];
      for (const [k, v] of Object.entries(headers)) {
        if (v === undefined) continue;
        for (const one of Array.isArray(v) ? v : [v]) lines.push(`${k}: ${one}`);
      }
      upstream.write(`${lines.join('\r\n')}\r\n\r\n`);
      if (head.length) upstream.write(head);
      upstream.pipe(socket);
      socket.pipe(upstream);
    };
    const upstream: Socket = secure
      ? tlsConnect({ host: target.hostname, port, servername: target.hostname }, onConnect)
      : netConnect(port, target.hostname, onConnect);
    upstream.setTimeout(this.opts.timeoutMs, () => {
      if (upstream.bytesRead === 0) {
        socket.end('HTTP/1.1 504 Gateway Timeout\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
        upstream.destroy();
      } else {
        upstream.setTimeout(0);
      }
    });
    upstream.on('error', () => {
      if (upstream.bytesRead === 0)
        socket.end('HTTP/1.1 502 Bad Gateway\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
      else socket.destroy();
    });
    socket.on('error', () => upstream.destroy());
    // A tunnel lives as long as both ends. HTTP server sockets allow half-open connections, so a FIN
    // from one side is turned into a full close here; when one side is gone, the other is closed too.
    socket.on('end', () => socket.end());
    upstream.on('end', () => upstream.end());
    socket.on('close', () => upstream.destroy());
    upstream.on('close', () => socket.destroy());
  };

  close(): void {
    this.httpAgent.destroy();
    this.httpsAgent.destroy();
  }
}
