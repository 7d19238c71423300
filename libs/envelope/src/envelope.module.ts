import { Logger, Module, type DynamicModule, type INestApplication, type LogLevel } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { describeConfig } from '@platform/config';
import { json } from 'express';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { APP_FILTER, APP_INTERCEPTOR, APP_PIPE } from '@nestjs/core';
import { EnvelopeExceptionFilter } from './envelope.filter';
import { EnvelopeInterceptor } from './envelope.interceptor';
import { createValidationPipe } from './validation';
import { requestIdMiddleware } from './request-id';

/** Registers the envelope, the one exception filter, validation and request ids for a whole app. */
@Module({
  providers: [
    { provide: APP_FILTER, useClass: EnvelopeExceptionFilter },
    { provide: APP_INTERCEPTOR, useClass: EnvelopeInterceptor },
    { provide: APP_PIPE, useFactory: createValidationPipe },
  ],
})
export class EnvelopeModule {}

/**
 * HTTP defaults every app applies in main.ts and in tests: request ids on every request (unknown routes
 * included, so it is an app-level middleware rather than a routed one) and graceful shutdown.
 */
export function configureHttpApp(app: INestApplication, bodyLimit = '1mb'): INestApplication {
  app.use(requestIdMiddleware);
  // Our own JSON parser instead of Nest's: Nest turns a parse error into a bare BadRequestException,
  // losing the fact that the body was malformed. Errors keep body-parser's `type` for the filter.
  const parse = json({ limit: bodyLimit });
  app.use((req: IncomingMessage, res: ServerResponse, next: (err?: unknown) => void) =>
    parse(req as never, res as never, (err?: unknown) => next(err ? new BodyParserError(err) : undefined)),
  );
  app.enableShutdownHooks();
  return app;
}

/** Wraps a body-parser failure so the router passes it to the filter untouched. */
export class BodyParserError extends Error {
  readonly type: string;
  constructor(readonly original: unknown) {
    super((original as Error)?.message ?? 'body parse error');
    this.type = String((original as { type?: unknown })?.type ?? 'entity.parse.failed');
  }
}

/** Creates an HTTP app with the platform's defaults; every app's bootstrap goes through here. */
export async function createHttpApp(
  module: DynamicModule,
  logger: LogLevel[] | false = ['error', 'warn', 'log'],
): Promise<INestApplication> {
  const app = await NestFactory.create(module, { logger, abortOnError: false, bodyParser: false });
  return configureHttpApp(app);
}

const LEVELS: LogLevel[] = ['fatal', 'error', 'warn', 'log', 'debug', 'verbose'];

/** `LOG_LEVEL=warn` means warn and everything more severe. */
export function logLevels(level: string): LogLevel[] {
  const i = LEVELS.indexOf(level as LogLevel);
  return LEVELS.slice(0, i < 0 ? LEVELS.indexOf('log') + 1 : i + 1);
}

/** main.ts of every app: create, listen on the configured host and port, exit non-zero on failure. */
export function runHttpMain(
  name: string,
  create: () => Promise<INestApplication>,
  configToken: new () => { PORT: number; HOST: string; LOG_LEVEL: string },
): void {
  create()
    .then(async (app) => {
      const cfg = app.get(configToken);
      app.useLogger(logLevels(cfg.LOG_LEVEL));
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
