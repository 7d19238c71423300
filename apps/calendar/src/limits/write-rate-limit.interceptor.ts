import { Injectable, type CallHandler, type ExecutionContext, type NestInterceptor } from '@nestjs/common';
import type { Request, Response } from 'express';
import type { Observable } from 'rxjs';
import { CommonError, commonError } from '@platform/envelope';
import type { RateLimitDecision } from '@platform/persistence';
import type { CalendarPrincipal } from '../auth/calendar.access';
import { CalendarConfig } from '../config/calendar.config';
import { WriteLimitsRepository } from './write-limits.unscoped.repository';

function headers(d: RateLimitDecision, windowSec: number): Record<string, string> {
  return {
    'RateLimit-Policy': `${d.limit};w=${windowSec}`,
    'RateLimit-Limit': String(d.limit),
    'RateLimit-Remaining': String(d.remaining),
    'RateLimit-Reset': String(d.resetSec),
  };
}

/**
 * The spec's write rate limit per product: a sliding window counted in PostgreSQL, so it holds across
 * every replica. Over the limit: 429 in the envelope with `Retry-After` and the `RateLimit-*` headers
 * (which every write response carries).
 */
@Injectable()
export class WriteRateLimitInterceptor implements NestInterceptor {
  constructor(
    private readonly limiter: WriteLimitsRepository,
    private readonly cfg: CalendarConfig,
  ) {}

  async intercept(context: ExecutionContext, next: CallHandler): Promise<Observable<unknown>> {
    const req = context.switchToHttp().getRequest<Request & { principal?: CalendarPrincipal }>();
    const res = context.switchToHttp().getResponse<Response>();
    const p = req.principal;
    if (p?.kind === 'key') {
      const d = await this.limiter.hit(`writes:${p.productId}`);
      const h = headers(d, this.cfg.CALENDAR_WRITE_WINDOW_SEC);
      if (!d.allowed) {
        throw commonError(
          CommonError.RATE_LIMITED,
          { retryAfter: d.retryAfterSec },
          { limit: d.limit, windowSec: this.cfg.CALENDAR_WRITE_WINDOW_SEC },
        ).withHeaders({
          ...h,
          'Retry-After': String(d.retryAfterSec),
        });
      }
      for (const [k, v] of Object.entries(h)) res.setHeader(k, v);
    }
    return next.handle();
  }
}
