import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import type { INestApplication, LogLevel } from '@nestjs/common';
import { configureHttpApp } from '@platform/envelope';
import { CalendarAppModule } from './app.module';

export async function createCalendarApp(
  env: NodeJS.ProcessEnv = process.env,
  logger: LogLevel[] | false = ['error', 'warn', 'log'],
): Promise<INestApplication> {
  const app = await NestFactory.create(CalendarAppModule.register(env), { logger, abortOnError: false });
  return configureHttpApp(app);
}
