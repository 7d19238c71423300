import {
  Agent,
  request as httpRequest,
  type ClientRequest,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type RequestOptions,
  type ServerResponse,
} from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { connect as netConnect, type Socket } from 'node:net';
import { connect as tlsConnect } from 'node:tls';
import type { Duplex } from 'node:stream';
import { REQUEST_ID_HEADER, resolveRequestId } from '@platform/envelope';
import {
  bypassReason,
  noneMatch,
  primaryKey,
  storability,
  strongEtag,
  varyValues,
  type StorePolicy,
} from '../cache/cache-policy';
import type { CacheEntry, FillOutcome, MicroCache } from '../cache/micro-cache';
import type { LimitDecision } from '../rate-limit/lease-limiter';
import { CorsPolicy, isPreflight } from './cors-policy';
import { forwarding } from './forwarded-headers';
import { ROUTE_TABLE, matchRoute, type RouteMatch, type RouteRule, type Upstream } from './route-table';
import { SecurityHeaders, type HeaderGroup } from './security-headers';
import type { TrustedProxies } from './trusted-proxies';

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

/** Sent upstream by the request that fills the cache without them, so the entry is a full 200. */
const CONDITIONALS = ['if-none-match', 'if-modified-since', 'if-match', 'if-unmodified-since', 'if-range'];
/** Recomputed for every answer from the cache. */
const NOT_STORED = new Set(['content-length', 'age', 'etag', 'date', REQUEST_ID_HEADER, 'x-cache']);
/** What a 304 repeats of the 200 it stands for (RFC 9110 15.4.5). */
const NOT_MODIFIED_KEEPS = ['cache-control', 'content-location', 'date', 'expires', 'vary', 'last-modified'];

/** Below the apps' keep-alive timeout (Node's default, 5 s). */
const UPSTREAM_IDLE_MS = 4_000;

/** After a 413, the rest of the body is read and dropped for this long / this much, then the socket closes. */
const LINGER_MS = 3000;
const LINGER_BYTES = 8 * 1024 * 1024;

export type ProxyFailure = 'unavailable' | 'timeout' | 'too-large' | 'cors-refused' | 'rate-limited';

/** Per-IP budgets of anonymous routes (decision 0022); undefined from `take` when the route has none. */
export interface ProxyRateLimit {
  take(req: IncomingMessage, rule: RouteRule): LimitDecision | Promise<LimitDecision> | undefined;
  headers(decision: LimitDecision): Record<string, string>;
}

export interface ProxyCache {
  store: MicroCache<ProxyFailure>;
  policy: StorePolicy;
}

export interface ProxyOptions {
  upstreams: Record<Upstream, string>;
  /** The route table with limits resolved (defaults to the registry's with its default limits). */
  table?: readonly RouteRule[];
  trustedProxies: TrustedProxies;
  cors: CorsPolicy;
  security: SecurityHeaders;
  /** The micro-cache and its storage rules; absent: nothing is cached. */
  cache?: ProxyCache;
  /** Per-IP budgets; absent: no route is limited. */
  rateLimit?: ProxyRateLimit;
  /**
   * Writes the error envelope (the gateway localises it); `rule` is the matched route, when there is
   * one, and `limit` the refusal of a 429.
   */
  onFailure: (
    req: IncomingMessage,
    res: ServerResponse,
    failure: ProxyFailure,
    rule?: RouteRule,
    limit?: LimitDecision,
  ) => void;
}

/** An upstream call in progress, possibly on its second connection (ReverseProxy.open). */
interface UpstreamCall {
  destroy(): void;
}

/**
 * Safe to send again when the connection it went out on was closed before any answer: an idempotent
 * method (RFC 9110 9.2.2) with no body, since a streamed body has already been read from the caller.
 */
function isRepeatable(req: IncomingMessage): boolean {
  if (req.method !== 'GET' && req.method !== 'HEAD') return false;
  const length = req.headers['content-length'];
  return (length === undefined || length === '0') && req.headers['transfer-encoding'] === undefined;
}

/** Headers not to pass on from one hop to the next: hop-by-hop ones and those Connection names. */
function hopHeaders(headers: IncomingHttpHeaders): Set<string> {
  const named = String(headers.connection ?? '')
    .split(',')
    .map((h) => h.trim().toLowerCase())
    .filter(Boolean);
  return new Set([...HOP_BY_HOP, ...named]);
}

const DOCS = /^\/docs(?:[/?]|$)/i;

/**
 * The gateway's edge and streaming reverse proxy (decisions 0006, 0013). For every request: security
 * headers, CORS by route group (preflights answered here), then for routed paths the body limit, the
 * micro-cache for anonymous GETs, and the upstream call with the route's timeout. Bodies are piped,
 * never buffered, except answers the cache will keep (at most its entry size). Keep-alive agents per
 * upstream avoid a TCP handshake per call.
 */
export class ReverseProxy {
  // An idle kept-alive connection is dropped after UPSTREAM_IDLE_MS, before the upstream's own
  // keep-alive timeout (Node's 5 s) closes it: a request sent on a connection the upstream is closing
  // at that moment is reset, and one with a body cannot be sent again (a 502 for the caller).
  private readonly httpAgent = new Agent({ keepAlive: true, maxSockets: 512, timeout: UPSTREAM_IDLE_MS });
  private readonly httpsAgent = new HttpsAgent({
    keepAlive: true,
    maxSockets: 512,
    timeout: UPSTREAM_IDLE_MS,
  });
  private readonly targets: Record<Upstream, URL>;
  private readonly table: readonly RouteRule[];

  constructor(private readonly opts: ProxyOptions) {
    this.targets = Object.fromEntries(
      Object.entries(opts.upstreams).map(([k, v]) => [k, new URL(v)]),
    ) as Record<Upstream, URL>;
    this.table = opts.table ?? ROUTE_TABLE;
  }

  match(url: string | undefined): RouteMatch | undefined {
    return url ? matchRoute(url, this.table) : undefined;
  }

  /**
   * Express-style middleware, first after the request id: headers and CORS for every request, then
   * proxies matched routes and passes the rest to the gateway's own routes (health, docs, 404).
   */
  readonly middleware = (req: IncomingMessage, res: ServerResponse, next: () => void): void => {
    const path = req.url ?? '/';
    const m = this.match(path);
    const cors = m?.rule.cors ?? null;
    const prefix = m?.rule.prefix ?? '';
    const group: HeaderGroup =
      cors?.kind === 'public'
        ? 'public'
        : cors?.kind === 'per-product'
          ? 'widget'
          : !m && DOCS.test(path)
            ? 'docs'
            : 'api';
    this.opts.security.apply(req, res, group, cors ? this.opts.cors.frameAncestors(cors, prefix, path) : []);
    if (isPreflight(req.method, req.headers)) {
      const answer = this.opts.cors.preflight(cors, prefix, path, req.headers);
      if (!answer.allowed) return this.opts.onFailure(req, res, 'cors-refused', m?.rule);
      for (const [k, v] of Object.entries(answer.headers)) res.setHeader(k, v);
      res.statusCode = 204;
      res.end();
      return;
    }
    for (const [k, v] of Object.entries(this.opts.cors.response(cors, prefix, path, req.method, req.headers)))
      res.setHeader(k, v);
    if (!m) return next();
    this.forward(req, res, m);
  };

  /**
   * The server's `checkContinue` listener: a body announced with `Expect: 100-continue` that the route
   * would refuse is refused before the client sends it. Everything else continues as usual.
   */
  checkContinue(emitRequest: (req: IncomingMessage, res: ServerResponse) => void) {
    return (req: IncomingMessage, res: ServerResponse): void => {
      const m = this.match(req.url);
      if (m && Number(req.headers['content-length']) > m.rule.limits.maxBodyBytes) {
        const requestId = resolveRequestId(req);
        req.headers[REQUEST_ID_HEADER] = requestId;
        res.setHeader('X-Request-Id', requestId);
        this.opts.security.apply(req, res, 'api');
        // The client may still send the body it announced: this connection is not reused.
        res.setHeader('Connection', 'close');
        this.opts.onFailure(req, res, 'too-large', m.rule);
        return;
      }
      res.writeContinue();
      emitRequest(req, res);
    };
  }

  /**
   * The route's per-IP budget first: a refused request costs nothing else (no body is read, no cache
   * lookup, no upstream call). Usually answered synchronously from this replica's lease.
   */
  private forward(req: IncomingMessage, res: ServerResponse, m: RouteMatch): void {
    const decision = this.opts.rateLimit?.take(req, m.rule);
    if (decision === undefined) return this.admit(req, res, m);
    if (!(decision instanceof Promise)) return this.limited(req, res, m, decision);
    decision.then(
      (d) => {
        if (!res.destroyed) this.limited(req, res, m, d);
      },
      () => {
        // The limiter fails open on its own; this is a bug in it, not a reason to refuse the caller.
        if (!res.destroyed) this.admit(req, res, m);
      },
    );
  }

  private limited(req: IncomingMessage, res: ServerResponse, m: RouteMatch, d: LimitDecision): void {
    for (const [k, v] of Object.entries(this.opts.rateLimit?.headers(d) ?? {})) res.setHeader(k, v);
    if (d.allowed) return this.admit(req, res, m);
    this.drainThen(req, () => this.opts.onFailure(req, res, 'rate-limited', m.rule, d));
  }

  private admit(req: IncomingMessage, res: ServerResponse, m: RouteMatch): void {
    const declared = req.headers['content-length'];
    if (declared !== undefined && Number(declared) > m.rule.limits.maxBodyBytes) {
      this.drainThen(req, () => this.opts.onFailure(req, res, 'too-large', m.rule));
      return;
    }
    const cache = this.opts.cache;
    if (cache && bypassReason(req.method, req.headers) === undefined) {
      this.fromCache(req, res, m, cache);
      return;
    }
    this.pass(req, res, m);
  }

  /**
   * Refuses a request whose body is still arriving only once the body is read and dropped (within
   * LINGER_BYTES and LINGER_MS): answering first made Node close the connection under a client still
   * writing, which then saw EPIPE instead of the 413 or 429 (found by the fuzz harness). Past the
   * bounds the answer goes out at once and the connection is cut.
   */
  private drainThen(req: IncomingMessage, send: () => void): void {
    if (req.complete || req.readableEnded) return send();
    let sent = false;
    let dropped = 0;
    const once = () => {
      if (sent) return;
      sent = true;
      clearTimeout(timer);
      send();
    };
    const timer = setTimeout(() => {
      once();
      req.socket.destroy();
    }, LINGER_MS);
    timer.unref();
    req.on('data', (c: Buffer) => {
      dropped += c.length;
      if (dropped > LINGER_BYTES) {
        once();
        req.socket.destroy();
      }
    });
    req.once('end', once);
    req.once('error', once);
    req.resume();
  }

  /** Reads and drops what is left of a refused body, within bounds, so the client sees the answer. */
  private linger(req: IncomingMessage): void {
    if (req.complete) return;
    let dropped = 0;
    const timer = setTimeout(() => req.socket.destroy(), LINGER_MS);
    timer.unref();
    req.on('data', (c: Buffer) => {
      dropped += c.length;
      if (dropped > LINGER_BYTES) req.socket.destroy();
    });
    req.once('close', () => clearTimeout(timer));
    req.resume();
  }

  private forwardHeaders(
    req: IncomingMessage,
    target: URL,
    drop: readonly string[] = [],
  ): IncomingHttpHeaders {
    const skip = hopHeaders(req.headers);
    const out: IncomingHttpHeaders = {};
    for (const [k, v] of Object.entries(req.headers)) if (!skip.has(k)) out[k] = v;
    const f = forwarding(
      req.headers,
      req.socket.remoteAddress,
      'encrypted' in req.socket,
      this.opts.trustedProxies,
    );
    for (const h of [
      'x-forwarded-for',
      'x-forwarded-proto',
      'x-forwarded-host',
      'x-real-ip',
      ...f.drop,
      ...drop,
    ])
      delete out[h];
    Object.assign(out, f.set);
    out[REQUEST_ID_HEADER] = resolveRequestId(req);
    out.host = target.host;
    return out;
  }

  /**
   * Opens the upstream request; the caller's body is streamed into it, counted against the limit.
   *
   * A bodiless GET or HEAD whose kept-alive connection turns out closed by the upstream (ECONNRESET or
   * EPIPE on a reused socket, before any answer) is sent once more on a new connection: an upstream that
   * is shutting down, or whose keep-alive timeout just ran out, closes idle connections and cannot tell
   * the gateway first (RFC 9112 9.3.1, 9.6). Other methods are not repeated, since their request may
   * have been acted on: they answer 502 as before, which their client may retry.
   */
  private open(
    req: IncomingMessage,
    m: RouteMatch,
    onFailure: (failure: ProxyFailure) => void,
    onResponse: (up: IncomingMessage) => void,
    drop: readonly string[] = [],
  ): UpstreamCall {
    const target = this.targets[m.rule.upstream];
    const secure = target.protocol === 'https:';
    const options: RequestOptions = {
      protocol: target.protocol,
      hostname: target.hostname,
      port: target.port || (secure ? 443 : 80),
      method: req.method,
      path: `${target.pathname.replace(/\/$/, '')}${m.upstreamPath}`,
      headers: this.forwardHeaders(req, target, drop),
      agent: secure ? this.httpsAgent : this.httpAgent,
    };
    let cancelled = false;
    let ended = false;
    let current: ClientRequest;
    const attempt = (retryable: boolean): ClientRequest => {
      const upstreamReq = (secure ? httpsRequest : httpRequest)(options);
      current = upstreamReq;
      let answered = false;
      // Idle timeout: reset by every byte in either direction, so a slow download is not cut off.
      upstreamReq.setTimeout(m.rule.limits.timeoutMs, () => onFailure('timeout'));
      upstreamReq.on('response', (up) => {
        answered = true;
        onResponse(up);
      });
      upstreamReq.on('error', (err: NodeJS.ErrnoException) => {
        // The upstream answered before taking the whole body (a refusal: 401, 413) and closed: the
        // write of the rest fails, the answer stands (its own stream reports a broken download).
        if (answered && (err.code === 'EPIPE' || err.code === 'ECONNRESET')) return;
        if (
          retryable &&
          !cancelled &&
          !answered &&
          upstreamReq.reusedSocket &&
          (err.code === 'ECONNRESET' || err.code === 'EPIPE')
        )
          return attempt(false);
        onFailure('unavailable');
      });
      if (ended) upstreamReq.end();
      return upstreamReq;
    };
    // Only the first attempt can carry a body: a repeated request has none.
    const first = attempt(isRepeatable(req));
    const max = m.rule.limits.maxBodyBytes;
    let seen = 0;
    const onData = (chunk: Buffer) => {
      seen += chunk.length;
      if (seen > max) {
        // Chunked (or lying) bodies are counted as they stream: the upstream never sees the rest.
        req.off('data', onData);
        req.off('end', onEnd);
        onFailure('too-large');
        this.linger(req);
        return;
      }
      if (!current.write(chunk)) req.pause();
    };
    const onEnd = () => {
      ended = true;
      current.end();
    };
    first.on('drain', () => req.resume());
    req.on('data', onData);
    req.on('end', onEnd);
    return {
      destroy: () => {
        cancelled = true;
        current.destroy();
      },
    };
  }

  /** Plain proxying: the upstream's answer is streamed back as it comes. */
  private pass(req: IncomingMessage, res: ServerResponse, m: RouteMatch): void {
    let failed = false;
    const fail = (failure: ProxyFailure) => {
      if (failed) return;
      failed = true;
      upstreamReq.destroy();
      if (res.headersSent) res.destroy();
      else this.opts.onFailure(req, res, failure, m.rule);
    };
    const upstreamReq = this.open(req, m, fail, (up) => {
      if (failed) return void up.resume();
      this.relay(res, up);
    });
    // A caller that goes away cancels the upstream call.
    res.on('close', () => {
      if (!res.writableFinished) upstreamReq.destroy();
    });
  }

  private relay(res: ServerResponse, up: IncomingMessage, buffered: Buffer[] = []): void {
    res.writeHead(
      up.statusCode ?? 502,
      up.statusMessage,
      this.opts.security.merge(res, up.headers, hopHeaders(up.headers)),
    );
    for (const chunk of buffered) res.write(chunk);
    up.pipe(res);
    up.on('error', () => res.destroy());
  }

  private fromCache(req: IncomingMessage, res: ServerResponse, m: RouteMatch, cache: ProxyCache): void {
    const primary = primaryKey(req.url ?? '/', req.headers);
    const { key, entry } = cache.store.lookup(primary, req.headers);
    if (entry) return this.answerFromEntry(req, res, entry, 'HIT');
    res.setHeader('X-Cache', 'MISS');
    // HEAD is answered from a GET's entry but never fills one.
    if (req.method !== 'GET') return this.pass(req, res, m);
    const pending = cache.store.pending(key);
    if (pending) return this.wait(req, res, m, pending);
    this.fill(req, res, m, primary, cache.store.begin(key), cache);
  }

  /** Coalesced: the answer the first request for this key is fetching, or the upstream if it has none. */
  private wait(
    req: IncomingMessage,
    res: ServerResponse,
    m: RouteMatch,
    pending: Promise<FillOutcome<ProxyFailure>>,
  ) {
    let done = false;
    // Bounded like the upstream call itself, in case the first request's answer trickles.
    const timer = setTimeout(() => {
      done = true;
      if (!res.destroyed) this.pass(req, res, m);
    }, m.rule.limits.timeoutMs);
    void pending.then((outcome) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      if (res.destroyed) return;
      if (
        outcome.kind === 'entry' &&
        outcome.entry.varyValues === varyValues(outcome.entry.vary, req.headers)
      )
        return this.answerFromEntry(req, res, outcome.entry, 'HIT');
      if (outcome.kind === 'failure') return this.opts.onFailure(req, res, outcome.failure, m.rule);
      this.pass(req, res, m);
    });
  }

  /**
   * The one request per key that asks the upstream. A storable answer is read whole (up to the entry
   * cap), kept, and then sent to this caller and every waiter; anything else streams through as usual
   * and the waiters ask for themselves. The fill outlives its caller, so waiters are not left behind.
   */
  private fill(
    req: IncomingMessage,
    res: ServerResponse,
    m: RouteMatch,
    primary: string,
    settle: (o: FillOutcome<ProxyFailure>) => void,
    cache: ProxyCache,
  ): void {
    const { policy } = cache;
    let failed = false;
    let streaming = false;
    const fail = (failure: ProxyFailure) => {
      if (failed) return;
      failed = true;
      upstreamReq.destroy();
      settle({ kind: 'failure', failure });
      if (res.headersSent) res.destroy();
      else if (!res.destroyed) this.opts.onFailure(req, res, failure, m.rule);
    };
    const onResponse = (up: IncomingMessage) => {
      if (failed) return void up.resume();
      const verdict = storability(up.statusCode ?? 0, up.headers, policy);
      if (!verdict.store) {
        // The fill asked without the caller's conditionals (for a full entry): an answer that is not
        // kept (an ICS feed's `private, no-cache`) must still honour them, or the caller never sees 304.
        const etag = up.headers.etag;
        if (up.statusCode === 200 && etag && noneMatch(req.headers['if-none-match'], etag)) {
          settle({ kind: 'pass' });
          up.resume();
          if (res.destroyed) return;
          res.writeHead(304, {
            etag,
            ...Object.fromEntries(
              NOT_MODIFIED_KEEPS.flatMap((k) => (up.headers[k] === undefined ? [] : [[k, up.headers[k]]])),
            ),
          });
          res.end();
          return;
        }
        return stream(up);
      }
      const chunks: Buffer[] = [];
      let size = 0;
      const onData = (c: Buffer) => {
        size += c.length;
        chunks.push(c);
        if (size > policy.maxEntryBytes) {
          up.off('data', onData);
          up.off('end', onEnd);
          stream(up, chunks);
        }
      };
      const onEnd = () => {
        if (failed) return;
        const body = Buffer.concat(chunks);
        const skip = hopHeaders(up.headers);
        const headers = Object.fromEntries(
          Object.entries(up.headers).filter(([k]) => !skip.has(k) && !NOT_STORED.has(k)),
        ) as IncomingHttpHeaders;
        const upstreamEtag = up.headers.etag;
        const entry: CacheEntry = {
          headers,
          body,
          etag: upstreamEtag && upstreamEtag.trim() ? upstreamEtag.trim() : strongEtag(body),
          storedAt: Date.now(),
          ttlMs: verdict.ttlSec * 1000,
          initialAgeSec: verdict.initialAgeSec,
          vary: verdict.vary,
          varyValues: varyValues(verdict.vary, req.headers),
        };
        cache.store.store(primary, entry);
        settle({ kind: 'entry', entry });
        if (!res.destroyed) this.answerFromEntry(req, res, entry, 'MISS');
      };
      up.on('data', onData);
      up.on('end', onEnd);
      // An upstream that drops the connection mid-answer: nothing is kept, everyone gets the 502.
      up.on('error', () => fail('unavailable'));
      up.on('close', () => {
        if (!up.complete && !streaming) fail('unavailable');
      });
    };
    const upstreamReq = this.open(req, m, fail, onResponse, CONDITIONALS);
    const stream = (up: IncomingMessage, buffered: Buffer[] = []) => {
      streaming = true;
      settle({ kind: 'pass' });
      if (res.destroyed) return void upstreamReq.destroy();
      this.relay(res, up, buffered);
    };
    res.on('close', () => {
      if (streaming && !res.writableFinished) upstreamReq.destroy();
    });
  }

  /** An answer from a stored entry: 304 when the caller already holds it, with Age and X-Cache. */
  private answerFromEntry(
    req: IncomingMessage,
    res: ServerResponse,
    entry: CacheEntry,
    label: 'HIT' | 'MISS',
  ): void {
    const headers = this.opts.security.merge(res, entry.headers, HOP_BY_HOP);
    res.setHeader('X-Cache', label);
    res.setHeader(
      'Age',
      String(Math.max(0, Math.floor((Date.now() - entry.storedAt) / 1000)) + entry.initialAgeSec),
    );
    res.setHeader('ETag', entry.etag);
    if (noneMatch(req.headers['if-none-match'], entry.etag)) {
      res.writeHead(
        304,
        Object.fromEntries(
          NOT_MODIFIED_KEEPS.flatMap((k) => (headers[k] === undefined ? [] : [[k, headers[k]]])),
        ),
      );
      res.end();
      return;
    }
    headers['content-length'] = entry.body.length;
    res.writeHead(200, headers);
    res.end(req.method === 'HEAD' ? undefined : entry.body);
  }

  /** Forwards an HTTP Upgrade (WebSocket) as a raw byte tunnel once the upstream accepts it. */
  readonly upgrade = (req: IncomingMessage, socket: Duplex, head: Buffer): void => {
    const m = this.match(req.url);
    if (!m) {
      socket.end('HTTP/1.1 404 Not Found\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
      return;
    }
    const target = this.targets[m.rule.upstream];
    const secure = target.protocol === 'https:';
    const port = Number(target.port || (secure ? 443 : 80));
    const onConnect = () => {
      const headers = this.forwardHeaders(req, target);
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
    upstream.setTimeout(m.rule.limits.timeoutMs, () => {
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
