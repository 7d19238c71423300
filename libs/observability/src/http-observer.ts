import type { IncomingMessage, ServerResponse } from 'node:http';
import { Logger, type LogLevel } from '@nestjs/common';
import { LogRecord } from './logging';
import { histogram } from './metrics';

/**
 * Seconds from the request's headers to the answer's last byte. Buckets from 5 ms (a micro-cache hit,
 * a health probe) to 2 minutes (the gateway's longest upload budget, decision 0013).
 */
export const httpRequestDuration = histogram({
  name: 'http_request_duration_seconds',
  help: 'HTTP requests answered, by method, route pattern and status (499: the client left first).',
  labelNames: ['method', 'route', 'status'] as const,
  buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120],
});

/** The route of a request that matched none: one series for every unknown path, never the path. */
export const UNMATCHED_ROUTE = 'unmatched';
/** A client that closed the connection before the answer was complete (nginx's code for it). */
export const CLIENT_CLOSED = 499;

type Middleware = (req: IncomingMessage, res: ServerResponse, next: () => void) => void;

export interface HttpObserverOptions {
  /**
   * The route pattern of an answered request, when the app knows better than Express (the gateway's
   * proxied routes never enter Express); undefined falls back to Express's matched route.
   */
  routeOf?: (req: IncomingMessage) => string | undefined;
}

/** The pattern Express matched (`/api/v1/verification-cases/:id`), never the path the client sent. */
export function expressRoute(req: IncomingMessage): string | undefined {
  const r = req as IncomingMessage & { route?: { path?: unknown }; baseUrl?: string };
  const path = r.route?.path;
  return typeof path === 'string' ? `${r.baseUrl ?? ''}${path}` : undefined;
}

/**
 * The tenant of an authenticated request: the organization (lending, verification), else the account
 * (calendar), from the principal the app's guard attached (libs/auth). Anonymous requests have none.
 */
export function tenantOf(req: IncomingMessage): string | undefined {
  const p = (req as IncomingMessage & { principal?: unknown }).principal;
  if (!p || typeof p !== 'object') return undefined;
  const fields = p as Record<string, unknown>;
  for (const key of ['organizationId', 'accountId', 'ownerId']) {
    if (typeof fields[key] === 'string') return fields[key];
  }
  return undefined;
}

/** Probes and scrapes: every few seconds from the cluster, logged only at debug unless they fail. */
const isQuiet = (route: string) =>
  route === '/metrics' || route === '/health' || route.startsWith('/health/');

const logger = new Logger('HTTP');

/**
 * Every request, once answered: one sample of `http_request_duration_seconds` and one log line with
 * the request id (libs/envelope sets it before this runs), the tenant, the route pattern, the status
 * and the latency. Nothing else of the request is logged: no headers (API keys, Authorization,
 * cookies, signatures), no query string, and no path, whose segments may be tokens (the borrower
 * portal's upload link).
 */
export function httpObserver(opts: HttpObserverOptions = {}): Middleware {
  return (req, res, next) => {
    const started = process.hrtime.bigint();
    let done = false;
    const finish = () => {
      if (done) return;
      done = true;
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      const route = opts.routeOf?.(req) ?? expressRoute(req) ?? UNMATCHED_ROUTE;
      const status = res.writableFinished ? res.statusCode : CLIENT_CLOSED;
      const method = req.method ?? 'GET';
      httpRequestDuration.observe({ method, route, status: String(status) }, seconds);
      const durationMs = Math.round(seconds * 10_000) / 10;
      const quiet = isQuiet(route);
      const level: LogLevel =
        status >= 500 ? (quiet ? 'warn' : 'error') : quiet && status < 400 ? 'debug' : 'log';
      const requestId = (req as IncomingMessage & { requestId?: string }).requestId;
      const record = new LogRecord(
        `${method} ${route} ${status} ${durationMs}ms`,
        { requestId, tenant: tenantOf(req), method, route, status, durationMs },
        ['requestId', 'tenant'],
      );
      logger[level](record);
    };
    res.once('finish', finish);
    res.once('close', finish);
    next();
  };
}
