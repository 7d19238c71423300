import 'reflect-metadata';
import type { INestApplication, LogLevel } from '@nestjs/common';
import { createHttpApp } from '@platform/envelope';
import { LendingAppModule } from './app.module';
import { CURRENT_API_VERSION, apiVersionMiddleware } from './common/api-version';
import { requestContextMiddleware } from './common/request-context';

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
  // The rest of the request runs with its id at hand: the events it writes carry it (request-id).
  app.use(requestContextMiddleware);
  return app;
}
