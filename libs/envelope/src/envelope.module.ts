import { Module, type INestApplication } from '@nestjs/common';
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
export function configureHttpApp(app: INestApplication): INestApplication {
  app.use(requestIdMiddleware);
  app.enableShutdownHooks();
  return app;
}
