import {
  Logger,
  Module,
  type DynamicModule,
  type INestApplication,
  type LogLevel,
  type OnApplicationShutdown,
  type OnModuleDestroy,
  type OnModuleInit,
} from '@nestjs/common';
import { HttpAdapterHost, NestFactory } from '@nestjs/core';
import { flushTracing } from '@platform/observability/tracing';
import { HttpAppConfig, describeConfig, loadConfig } from '@platform/config';
import { PlatformLogger, httpObserver, logFormat } from '@platform/observability';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Request } from 'express';
import { I18nService } from 'nestjs-i18n';
import { APP_FILTER, APP_PIPE } from '@nestjs/core';
import { EnvelopeExceptionFilter } from './envelope.filter';
import { EnvelopeExpressAdapter } from './envelope.adapter';
import { createValidationPipe } from './validation';
import { requestIdMiddleware } from './request-id';
import { installClientErrorHandler } from './client-error';
import { jsonBodyParser, urlGuardMiddleware } from './json-body';
import { configureHttpDrain, startHttpDrain } from './http-drain';

/**
 * Registers the one exception filter and validation for a whole app; the envelope itself is put on
 * by the app's adapter (EnvelopeExpressAdapter), which is checked here so that an app built without
 * it fails at boot rather than answering bare JSON.
 */
@Module({
  providers: [
    { provide: APP_FILTER, useClass: EnvelopeExceptionFilter },
    { provide: APP_PIPE, useFactory: createValidationPipe },
  ],
})
export class EnvelopeModule implements OnModuleInit, OnModuleDestroy, OnApplicationShutdown {
  constructor(private readonly adapterHost: HttpAdapterHost) {}

  /**
   * The first shutdown hook Nest runs (on a signal, or `app.close()`), well before it closes the HTTP
   * server: from here on connections are not kept alive (libs/envelope http-drain), so the server's close
   * is not held up by clients that keep theirs busy.
   */
  onModuleDestroy(): void {
    const server = this.adapterHost.httpAdapter?.getHttpServer() as Server | undefined;
    if (server) startHttpDrain(server);
  }

  /** The process is about to exit (Nest re-raises the signal): export the spans still queued. */
  async onApplicationShutdown(): Promise<void> {
    await flushTracing();
  }

  onModuleInit(): void {
    const adapter = this.adapterHost.httpAdapter as unknown;
    // No adapter: an application context without HTTP (a CLI, a compiled test module).
    if (adapter && !(adapter instanceof EnvelopeExpressAdapter)) {
      throw new Error(
        'EnvelopeModule needs the EnvelopeExpressAdapter: create the app with createHttpApp or ' +
          'NestFactory.create(module, new EnvelopeExpressAdapter(), options)',
      );
    }
  }
}

/**
 * HTTP defaults every app applies in main.ts and in tests: request ids on every request (unknown routes
 * included, so it is an app-level middleware rather than a routed one), then the request's log line and
 * duration histogram (libs/observability), the URL and body checks that keep hostile input out of every
 * route, envelope answers for requests Node cannot parse, and graceful shutdown (Nest's signal hooks; the
 * connections drain from EnvelopeModule's first hook).
 */
type Middleware = (req: IncomingMessage, res: ServerResponse, next: (err?: unknown) => void) => void;

/** What an app adds to the platform's HTTP defaults. */
export interface HttpAppOptions {
  /** Largest JSON body (body-parser syntax); 1 MB by default. */
  bodyLimit?: string;
  /**
   * Middleware run right after the request id and the request log, before the URL check and the body
   * are read: what it sets (a header) is on every answer, a 413 or a malformed-body 400 included.
   * Lending's Api-Version goes here.
   */
  first?: Middleware[];
  /** Headers on the answers to requests Node cannot parse (they never reach any middleware). */
  unparsableHeaders?: Record<string, string>;
}

/**
 * HTTP defaults every app applies in main.ts and in tests: request ids on every request (unknown routes
 * included, so it is an app-level middleware rather than a routed one), the request's log line and
 * duration histogram (libs/observability), the app's own first middleware, the URL and body checks that
 * keep hostile input out of every route, envelope answers for requests Node cannot parse, and graceful
 * shutdown (Nest's signal hooks; the connections drain from EnvelopeModule's first hook).
 */
export function configureHttpApp(
  app: INestApplication,
  opts: HttpAppOptions | string = {},
): INestApplication {
  const o: HttpAppOptions = typeof opts === 'string' ? { bodyLimit: opts } : opts;
  app.use(requestIdMiddleware);
  app.use(httpObserver());
  for (const m of o.first ?? []) app.use(m);
  app.use(urlGuardMiddleware);
  app.use(jsonBodyParser(o.bodyLimit ?? '1mb'));
  answerUnparsableRequests(app, o.unparsableHeaders);
  app.enableShutdownHooks();
  return app;
}

/** Requests Node rejects before any middleware (431, 400, 408) still leave in the envelope. */
export function answerUnparsableRequests(app: INestApplication, headers: Record<string, string> = {}): void {
  const filter = new EnvelopeExceptionFilter(app.get(I18nService));
  installClientErrorHandler(
    app.getHttpServer() as Server,
    (error, req) => filter.render(error, req as unknown as Request),
    headers,
  );
}

/** Creates an HTTP app with the platform's defaults; every app's bootstrap goes through here. */
export async function createHttpApp(
  module: DynamicModule,
  logger: LogLevel[] | false = ['error', 'warn', 'log'],
  opts: HttpAppOptions = {},
): Promise<INestApplication> {
  const app = await NestFactory.create(module, new EnvelopeExpressAdapter(), {
    logger,
    abortOnError: false,
    bodyParser: false,
  });
  return configureHttpApp(app, opts);
}

const LEVELS: LogLevel[] = ['fatal', 'error', 'warn', 'log', 'debug', 'verbose'];

/** `LOG_LEVEL=warn` means warn and everything more severe. */
export function logLevels(level: string): LogLevel[] {
  const i = LEVELS.indexOf(level as LogLevel);
  return LEVELS.slice(0, i < 0 ? LEVELS.indexOf('log') + 1 : i + 1);
}

/**
 * The process's logger, before the app exists so that its first line is in the right format: JSON in
 * production (or with LOG_FORMAT=json), Nest's text otherwise (libs/observability PlatformLogger).
 */
export function installPlatformLogger(name: string, env: NodeJS.ProcessEnv = process.env): void {
  const cfg = loadConfig(HttpAppConfig, env);
  Logger.overrideLogger(
    new PlatformLogger({
      format: logFormat(cfg),
      service: name,
      instance: cfg.INSTANCE_ID,
      logLevels: logLevels(cfg.LOG_LEVEL),
    }),
  );
}

/** main.ts of every app: create, listen on the configured host and port, exit non-zero on failure. */
export function runHttpMain(
  name: string,
  create: () => Promise<INestApplication>,
  configToken: new () => { PORT: number; HOST: string; LOG_LEVEL: string; HTTP_DRAIN_MS: number },
  env: NodeJS.ProcessEnv = process.env,
): void {
  Promise.resolve()
    .then(() => installPlatformLogger(name, env))
    .then(create)
    .then(async (app) => {
      const cfg = app.get(configToken);
      app.useLogger(logLevels(cfg.LOG_LEVEL));
      configureHttpDrain(app.getHttpServer() as Server, { budgetMs: cfg.HTTP_DRAIN_MS });
      await app.listen(cfg.PORT, cfg.HOST);
      Logger.log(`${name} listening on ${cfg.HOST}:${cfg.PORT}`, 'Bootstrap');
      // What this replica actually runs with, secrets masked: the first question when a pod misbehaves.
      Logger.log(`config ${JSON.stringify(describeConfig(cfg))}`, 'Bootstrap');
    })
    .catch((err: unknown) => {
      Logger.error(err instanceof Error ? (err.stack ?? err.message) : String(err), 'Bootstrap');
      process.exit(1);
    });
}
