import 'reflect-metadata';
import type { INestApplication, LogLevel } from '@nestjs/common';
import { createHttpApp } from '@platform/envelope';
import { LendingAppModule } from './app.module';
import { CURRENT_API_VERSION, apiVersionMiddleware } from './common/api-version';

export async function createLendingApp(
  env: NodeJS.ProcessEnv = process.env,
  logger: LogLevel[] | false = ['error', 'warn', 'log'],
): Promise<INestApplication> {
  // First, ahead of the body parser and every route: the version is chosen before anything runs, and
  // every answer says it (a 413, a malformed body, an unknown route, a refused key included).
  const app = await createHttpApp(LendingAppModule.register(env), logger, {
    first: [apiVersionMiddleware],
    unparsableHeaders: { 'Api-Version': CURRENT_API_VERSION },
  });
  // The request's id is at hand for everything it runs (libs/observability's request context, set by
  // the envelope's request-id middleware): the events it writes carry it (request-id).
  return app;
}
