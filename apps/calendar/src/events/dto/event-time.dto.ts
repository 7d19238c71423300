import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsISO8601, IsOptional, IsTimeZone, Matches } from 'class-validator';

/**
 * A point in time as Google Calendar and iCalendar model it: either an instant (`date_time` with an
 * offset, plus the IANA `time_zone` it belongs to, which recurrence and display need) or a whole day
 * (`date`, for all-day events; the end date is exclusive).
 */
export class EventTimeDto {
  @ApiPropertyOptional({ example: '2026-12-01T10:00:00+05:00', description: 'ISO 8601 instant with offset' })
  @IsOptional()
  @IsISO8601({ strict: true })
  @Matches(/T.*(Z|[+-]\d{2}:\d{2})$/, { message: 'date_time needs an offset or Z' })
  date_time?: string;

  @ApiPropertyOptional({ example: 'Asia/Almaty', description: 'IANA time zone' })
  @IsOptional()
  @IsTimeZone()
  time_zone?: string;

  @ApiPropertyOptional({ example: '2026-12-01', description: 'All-day date (YYYY-MM-DD)' })
  @IsOptional()
  @Matches(/^\d{4}-\d{2}-\d{2}$/)
  date?: string;
}
