import 'reflect-metadata';
import type { Server } from 'node:http';
import type { INestApplication, LogLevel } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import {
  EnvelopeExpressAdapter,
  answerUnparsableRequests,
  requestIdMiddleware,
  urlGuardMiddleware,
} from '@platform/envelope';
import { GatewayAppModule } from './app.module';
import { GatewayProxy } from './proxy/gateway-proxy.provider';

/**
 * No body parser: proxied bodies stream through untouched. Order: request id, then the edge (security
 * headers, CORS, preflights) and the route table in one middleware, then the gateway's own routes
 * (health, docs) and the 404 envelope for everything else. Requests Node cannot parse (oversized
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
  app.use(requestIdMiddleware);
  app.use(proxy.middleware);
  // Proxied URLs are checked by the service that owns them; the gateway's own routes here.
  app.use(urlGuardMiddleware);
  const server = app.getHttpServer() as Server;
  server.on('upgrade', proxy.upgrade);
  server.on(
    'checkContinue',
    proxy.checkContinue((req, res) => server.emit('request', req, res)),
  );
  answerUnparsableRequests(app);
  app.enableShutdownHooks();
  return app;
}
