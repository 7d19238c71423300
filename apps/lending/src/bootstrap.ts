import 'reflect-metadata';
import type { INestApplication, LogLevel } from '@nestjs/common';
import { createHttpApp } from '@platform/envelope';
import { LendingAppModule } from './app.module';

export function createLendingApp(
  env: NodeJS.ProcessEnv = process.env,
  logger: LogLevel[] | false = ['error', 'warn', 'log'],
): Promise<INestApplication> {
  return createHttpApp(LendingAppModule.register(env), logger);
}
