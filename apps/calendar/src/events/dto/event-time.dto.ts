import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional } from 'class-validator';
import { IsCalendarDate, IsIanaTimeZone, IsInstant, MaxChars } from '@platform/envelope';
import { EVENT_LIMITS } from '../event-limits';

/**
 * A point in time as Google Calendar and iCalendar model it: either an instant (`date_time` with an
 * offset, plus the IANA `time_zone` it belongs to, which recurrence and display need) or a whole day
 * (`date`, for all-day events; the end date is exclusive).
 */
export class EventTimeDto {
  @ApiPropertyOptional({ example: '2026-12-01T10:00:00+05:00', description: 'ISO 8601 instant with offset' })
  @IsOptional()
  @IsInstant()
  date_time?: string;

  @ApiPropertyOptional({
    example: 'Asia/Almaty',
    description:
      'IANA time zone name, as Google Calendar takes it; a bare offset such as `+05:00` is refused',
  })
  @IsOptional()
  @MaxChars(EVENT_LIMITS.timeZone)
  @IsIanaTimeZone()
  time_zone?: string;

  @ApiPropertyOptional({ example: '2026-12-01', description: 'All-day date (YYYY-MM-DD)' })
  @IsOptional()
  @IsCalendarDate()
  date?: string;
}
