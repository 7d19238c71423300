import 'reflect-metadata';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { INestApplication, LogLevel } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import {
  EnvelopeExpressAdapter,
  answerUnparsableRequests,
  requestIdMiddleware,
  urlGuardMiddleware,
} from '@platform/envelope';
import { expressRoute, httpObserver } from '@platform/observability';
import { GatewayAppModule } from './app.module';
import { GatewayProxy } from './proxy/gateway-proxy.provider';

/**
 * No body parser: proxied bodies stream through untouched. Order: request id, then the edge (security
 * headers, CORS, preflights) and the route table, both on the HTTP server's request event ahead of
 * Express, then (in Express) the gateway's own routes (health, docs) and the 404 envelope for
 * everything else. Requests Node cannot parse (oversized
 * headers or URL) get the envelope too, before any of that; a body announced with
 * `Expect: 100-continue` that its route would refuse is refused before it is sent.
 */
export async function createGatewayApp(
  env: NodeJS.ProcessEnv = process.env,
  logger: LogLevel[] | false = ['error', 'warn', 'log'],
): Promise<INestApplication> {
  const app = await NestFactory.create(GatewayAppModule.register(env), new EnvelopeExpressAdapter(), {
    logger,
    abortOnError: false,
    bodyParser: false,
  });
  const proxy = app.get(GatewayProxy);
  // Proxied URLs are checked by the service that owns them; the gateway's own routes here.
  app.use(urlGuardMiddleware);
  const server = app.getHttpServer() as Server;
  // The edge runs ahead of Express: a proxied request (most of the traffic, and every micro-cache hit)
  // never enters Express's router, which cost ~9% of a cached GET's CPU (bench/status-page).
  const listeners = server.listeners('request') as ((req: IncomingMessage, res: ServerResponse) => void)[];
  if (listeners.length !== 1)
    throw new Error(`expected Express as the only request listener, found ${listeners.length}`);
  const [express] = listeners;
  server.removeAllListeners('request');
  // Request log and duration histogram: a proxied request is labelled with its route table entry
  // (bounded, never the path), the gateway's own routes with Express's pattern.
  const observe = httpObserver({
    routeOf: (req) => expressRoute(req) ?? proxy.match(req.url)?.rule.prefix,
  });
  server.on('request', (req: IncomingMessage, res: ServerResponse) =>
    requestIdMiddleware(req, res, () =>
      observe(req, res, () => proxy.middleware(req, res, () => express(req, res))),
    ),
  );
  server.on('upgrade', proxy.upgrade);
  server.on(
    'checkContinue',
    proxy.checkContinue((req, res) => server.emit('request', req, res)),
  );
  answerUnparsableRequests(app);
  app.enableShutdownHooks();
  return app;
}
