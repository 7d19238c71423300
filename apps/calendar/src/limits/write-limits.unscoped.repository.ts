// Unscoped: the write limiter's counters are keyed by bucket in rate_limit_windows, no account's rows.
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { PgSlidingWindowLimiter, type RateLimitDecision } from '@platform/persistence';
import { CalendarConfig } from '../config/calendar.config';
import { CALENDAR_SCHEMA } from '../tenancy/tenant-ids';

/** The write counters (`rate_limit_windows`, owned and queried by the limiter in libs/persistence). */
@Injectable()
export class WriteLimitsRepository {
  private readonly limiter: PgSlidingWindowLimiter;

  constructor(@InjectDataSource() ds: DataSource, cfg: CalendarConfig) {
    this.limiter = new PgSlidingWindowLimiter(
      ds,
      CALENDAR_SCHEMA,
      cfg.CALENDAR_WRITE_LIMIT,
      cfg.CALENDAR_WRITE_WINDOW_SEC,
    );
  }

  hit(bucket: string): Promise<RateLimitDecision> {
    return this.limiter.hit(bucket);
  }
}
