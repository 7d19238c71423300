import { Injectable, type CallHandler, type ExecutionContext, type NestInterceptor } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { Request, Response } from 'express';
import type { Observable } from 'rxjs';
import { DataSource } from 'typeorm';
import { CommonError, commonError } from '@platform/envelope';
import { PgSlidingWindowLimiter, type RateLimitDecision } from '@platform/persistence';
import type { CalendarPrincipal } from '../auth/calendar.guard';
import { CalendarConfig } from '../config/calendar.config';

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
  private readonly limiter: PgSlidingWindowLimiter;

  constructor(
    @InjectDataSource() ds: DataSource,
    private readonly cfg: CalendarConfig,
  ) {
    this.limiter = new PgSlidingWindowLimiter(
      ds,
      'calendar',
      cfg.CALENDAR_WRITE_LIMIT,
      cfg.CALENDAR_WRITE_WINDOW_SEC,
    );
  }

  async intercept(context: ExecutionContext, next: CallHandler): Promise<Observable<unknown>> {
    const req = context.switchToHttp().getRequest<Request & { principal?: CalendarPrincipal }>();
    const res = context.switchToHttp().getResponse<Response>();
    const p = req.principal;
    if (p?.kind === 'product') {
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
