import {
  Injectable,
  SetMetadata,
  type CallHandler,
  type ExecutionContext,
  type NestInterceptor,
} from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Response } from 'express';
import { map, type Observable } from 'rxjs';
import { isEnvelope, ok } from './envelope';

/** Metadata key of `@RawResponse()`; tools that list routes read it too. */
export const RAW_RESPONSE = 'platform:raw-response';

/** The handler writes a non-JSON body itself (a PDF, an ICS feed, a CalDAV answer). */
export const RawResponse = () => SetMetadata(RAW_RESPONSE, true);

/** Wraps whatever a controller returns into `{ success, code, error, value }`. */
@Injectable()
export class EnvelopeInterceptor implements NestInterceptor {
  constructor(private readonly reflector: Reflector) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    if (context.getType() !== 'http') return next.handle();
    const raw = this.reflector.getAllAndOverride<boolean>(RAW_RESPONSE, [
      context.getHandler(),
      context.getClass(),
    ]);
    if (raw) return next.handle();
    const res = context.switchToHttp().getResponse<Response>();
    return next
      .handle()
      .pipe(
        map((value: unknown) =>
          isEnvelope(value) ? value : ok(value === undefined ? null : value, res.statusCode),
        ),
      );
  }
}
