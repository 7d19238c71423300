import { ExpressAdapter } from '@nestjs/platform-express';
import type { Server } from 'node:http';
import type { Response } from 'express';
import { isEnvelope, ok } from './envelope';
import { httpDrainOf } from './http-drain';

const RAW = Symbol('platform:raw-response');

/** Marks a response whose handler writes a non-JSON body itself (see `@RawResponse()`). */
export function markRawResponse(res: object): void {
  (res as { [RAW]?: true })[RAW] = true;
}

/**
 * The express adapter of every app: it wraps whatever a route handler returns into
 * `{ success, code, error, value }` where Nest hands the result to express.
 *
 * This is the envelope's only place. A global interceptor did it before, and any interceptor makes
 * Nest run every request of every route through an rxjs chain (defer, mergeAll, a ReplaySubject, a
 * takeUntil on client disconnect, lastValueFrom, AsyncResource.bind): about half the CPU a
 * `/health/live` took (issue 9). Nest calls `reply` only with a route handler's result, after the
 * route's own interceptors: errors never come here, the envelope filter writes them itself; nor
 * do handlers that take `@Res()` without passthrough.
 */
export class EnvelopeExpressAdapter extends ExpressAdapter {
  constructor() {
    super();
    // Says nothing a client needs, on every response.
    this.instance.disable('x-powered-by');
  }

  /**
   * Nest closes the server once the `beforeApplicationShutdown` hooks are done, and Node's `close()`
   * closes idle kept-alive connections at once: not before the drain's first sweep, for the reason
   * given in http-drain.ts (a request in transit on a busy connection would be reset).
   */
  override async close(): Promise<unknown> {
    const server = this.getHttpServer() as Server | undefined;
    const drain = server ? httpDrainOf(server) : undefined;
    if (drain) await drain.firstSweep;
    return super.close();
  }

  override reply(response: Response, body: unknown, statusCode?: number): unknown {
    if ((response as { [RAW]?: true })[RAW]) return super.reply(response, body, statusCode);
    // `code` is the status the handler left (it may set its own through a passthrough response),
    // read before the route's status is applied, as the interceptor did.
    const value = isEnvelope(body) ? body : ok(body === undefined ? null : body, response.statusCode);
    return super.reply(response, value, statusCode);
  }
}
