import 'reflect-metadata';
import type { INestApplication, LogLevel } from '@nestjs/common';
import { createHttpApp } from '@platform/envelope';
import { LendingAppModule } from './app.module';
import { apiVersionMiddleware } from './common/api-version';
import { requestContextMiddleware } from './common/request-context';

export async function createLendingApp(
  env: NodeJS.ProcessEnv = process.env,
  logger: LogLevel[] | false = ['error', 'warn', 'log'],
): Promise<INestApplication> {
  const app = await createHttpApp(LendingAppModule.register(env), logger);
  // Ahead of every route (the routes are registered at init): the version is chosen before anything runs.
  app.use(apiVersionMiddleware);
  // The rest of the request runs with its id at hand: the events it writes carry it (request-id).
  app.use(requestContextMiddleware);
  return app;
}
