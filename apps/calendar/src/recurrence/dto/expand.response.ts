import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { EventTimeResponse } from '../../events/dto/event.response';

/** Documentation shapes of `/Calendar/expand` (built in expand.service.ts). */

export class OccurrenceResponse {
  @ApiProperty({
    example: '2026-03-30T07:00:00Z',
    description:
      'RECURRENCE-ID: the original start as a UTC instant, or the date of an all-day series; the key of an override',
  })
  recurrence_id: string;
  @ApiProperty({
    type: EventTimeResponse,
    example: { date_time: '2026-03-30T09:00:00+02:00', time_zone: 'Europe/Berlin' },
    description: 'Local wall time with the zone’s offset at that instant, and the zone; or a date',
  })
  start: EventTimeResponse;
  @ApiProperty({ type: EventTimeResponse, description: 'Exclusive end, as start' }) end: EventTimeResponse;
  @ApiProperty({
    enum: ['confirmed', 'tentative', 'cancelled'],
    description:
      'The event’s status (cancelled only when the whole event is; cancelled occurrences are not listed)',
  })
  status: string;
  @ApiProperty({ description: 'An override applies to this occurrence' }) overridden: boolean;
  @ApiProperty({ description: 'The override moved it (start or end differs from the rule’s)' })
  moved: boolean;
}

export class ExpandResponse {
  @ApiProperty({ type: [OccurrenceResponse], description: 'By start, then recurrence id' })
  items: OccurrenceResponse[];
  @ApiProperty({
    example: 12,
    description:
      'Occurrences overlapping [from, to) in all pages; counted up to 100,000 (a lower bound there)',
  })
  total: number;
  @ApiProperty({
    nullable: true,
    type: String,
    description: 'Pass as `cursor` for the next page; null on the last',
  })
  next_cursor: string | null;
  @ApiPropertyOptional({
    nullable: true,
    enum: ['ITERATION_CAP', 'EMPTY_ITERATION_CAP'],
    description:
      'Set when the engine stopped early (a rule that examines too many candidates); the list may then miss occurrences',
  })
  truncated: string | null;
}
