import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { Periodic } from '@platform/scheduling';

export interface HttpDrainSettings {
  /**
   * From the start of shutdown until the connections still open are cut (`closeAllConnections`): the
   * longest request the app may be serving, so that it and the shutdown hooks fit the pod's grace
   * period (decision 0028, `HTTP_DRAIN_MS`).
   */
  budgetMs: number;
  /**
   * How often kept-alive connections with no request in progress are closed, the first time one period
   * after the shutdown began (see startHttpDrain).
   */
  sweepMs: number;
}

/** Outside Kubernetes (tests, `npm start`) and until runHttpMain applies the app's `HTTP_DRAIN_MS`. */
export const DEFAULT_HTTP_DRAIN: HttpDrainSettings = { budgetMs: 30_000, sweepMs: 250 };

export interface HttpDrainState {
  startedAt: number;
  /** Resolves once idle connections were first closed (or the server closed before that). */
  firstSweep: Promise<void>;
  /** True once the budget ran out and every connection left was cut. */
  forced: boolean;
}

const settings = new WeakMap<Server, HttpDrainSettings>();
const drains = new WeakMap<Server, HttpDrainState>();

/** The app's drain settings (runHttpMain: `HTTP_DRAIN_MS` from its config). */
export function configureHttpDrain(server: Server, s: Partial<HttpDrainSettings>): void {
  settings.set(server, { ...DEFAULT_HTTP_DRAIN, ...settings.get(server), ...s });
}

/** The drain in progress on this server, if shutdown has begun. */
export function httpDrainOf(server: Server): HttpDrainState | undefined {
  return drains.get(server);
}

/**
 * Shutdown has begun: stop keeping connections alive. `server.close()` alone (Nest's, after the
 * `beforeApplicationShutdown` hooks) refuses new connections but serves every request that arrives on a
 * busy kept-alive one, so a gateway or ingress under load (whose agents keep their connections) held a
 * terminating pod until SIGKILL. From now on:
 *
 * - every answer carries `Connection: close`, so the client drops the socket after it and opens a new one
 *   (to another replica: the endpoint is gone by then, decision 0028's preStop pause);
 * - kept-alive connections with no request in progress are closed every `sweepMs`: those the client
 *   left unused in its pool, and those whose answer began before the drain (it went out without
 *   `Connection: close`);
 * - when `budgetMs` runs out, every connection left is cut: a request still running then would have been
 *   killed with the pod anyway, and the hooks after the server's close still get their time.
 *
 * Not at once: closing an "idle" connection races with a request the client has just sent on it and
 * the server has not read yet (Node counts it idle until then), and that request is lost with a reset.
 * At the instant shutdown begins every busy connection is in that window between two requests at some
 * point, and a test with four clients in a loop lost up to three requests that way. One period later
 * each busy connection has carried its next request, answered with `Connection: close`, and is gone; what
 * is left idle is what the client is not using, and the gateway sends a GET again on a reset reused
 * connection (apps/gateway ReverseProxy). `EnvelopeExpressAdapter.close` waits for this first sweep, as
 * Node's `server.close()` closes idle connections too.
 *
 * Idempotent. Timers are unref'd and stop when the server closes.
 */
export function startHttpDrain(server: Server, now = Date.now()): HttpDrainState {
  const running = drains.get(server);
  if (running) return running;
  const s = settings.get(server) ?? DEFAULT_HTTP_DRAIN;
  let swept!: () => void;
  const state: HttpDrainState = {
    startedAt: now,
    firstSweep: new Promise<void>((r) => (swept = r)),
    forced: false,
  };
  drains.set(server, state);
  // Ahead of every other listener (Express, the gateway's edge), so that the header is on the response
  // before any of them can write it.
  server.prependListener('request', (_req: IncomingMessage, res: ServerResponse) => {
    if (!res.headersSent) res.setHeader('Connection', 'close');
  });
  // Periodic, process scope: this server's own sockets.
  const sweep = new Periodic({
    name: 'HttpDrain',
    scope: 'process',
    everyMs: s.sweepMs,
    firstRound: s.sweepMs,
    work: async () => {
      server.closeIdleConnections();
      swept();
    },
  });
  sweep.start();
  const deadline = setTimeout(() => {
    state.forced = true;
    server.closeAllConnections();
  }, s.budgetMs);
  deadline.unref();
  server.once('close', () => {
    void sweep.stop();
    clearTimeout(deadline);
    swept();
  });
  return state;
}
