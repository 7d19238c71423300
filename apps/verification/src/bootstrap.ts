import 'reflect-metadata';
import type { INestApplication, LogLevel } from '@nestjs/common';
import { createHttpApp } from '@platform/envelope';
import { VerificationAppModule } from './app.module';

export function createVerificationApp(
  env: NodeJS.ProcessEnv = process.env,
  logger: LogLevel[] | false = ['error', 'warn', 'log'],
): Promise<INestApplication> {
  return createHttpApp(VerificationAppModule.register(env), logger);
}
