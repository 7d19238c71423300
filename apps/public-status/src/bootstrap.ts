import 'reflect-metadata';
import type { INestApplication, LogLevel } from '@nestjs/common';
import { createHttpApp } from '@platform/envelope';
import { PublicStatusAppModule } from './app.module';

export function createPublicStatusApp(
  env: NodeJS.ProcessEnv = process.env,
  logger: LogLevel[] | false = ['error', 'warn', 'log'],
): Promise<INestApplication> {
  return createHttpApp(PublicStatusAppModule.register(env), logger);
}
