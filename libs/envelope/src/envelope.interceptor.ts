import {
  Injectable,
  SetMetadata,
  UseInterceptors,
  applyDecorators,
  type CallHandler,
  type ExecutionContext,
  type NestInterceptor,
} from '@nestjs/common';
import type { Observable } from 'rxjs';
import { markRawResponse } from './envelope.adapter';

/** Metadata key of `@RawResponse()`; tools that list routes read it too. */
export const RAW_RESPONSE = 'platform:raw-response';

/**
 * Tells the adapter (EnvelopeExpressAdapter) to send what a raw route returns as it is. Only the
 * few raw routes carry an interceptor: every other route has none, which spares it Nest's rxjs chain.
 */
@Injectable()
export class RawResponseInterceptor implements NestInterceptor {
  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    if (context.getType() === 'http') markRawResponse(context.switchToHttp().getResponse<object>());
    return next.handle();
  }
}

/** The handler writes a non-JSON body itself (a PDF, an ICS feed, a CalDAV answer). */
export const RawResponse = () =>
  applyDecorators(SetMetadata(RAW_RESPONSE, true), UseInterceptors(RawResponseInterceptor));
