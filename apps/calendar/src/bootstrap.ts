import 'reflect-metadata';
import type { INestApplication, LogLevel } from '@nestjs/common';
import { createHttpApp } from '@platform/envelope';
import { CalendarAppModule } from './app.module';
import { requestLogMiddleware } from './limits/request-log.middleware';
import { RequestLogWriter } from './limits/request-log.writer';

export async function createCalendarApp(
  env: NodeJS.ProcessEnv = process.env,
  logger: LogLevel[] | false = ['error', 'warn', 'log'],
): Promise<INestApplication> {
  const app = await createHttpApp(CalendarAppModule.register(env), logger);
  app.use(requestLogMiddleware(app.get(RequestLogWriter)));
  return app;
}
