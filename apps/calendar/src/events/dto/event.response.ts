import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { EVENT_STATUSES, EVENT_VISIBILITIES, EVENT_TRANSPARENCIES } from '../calendar-event.entity';
import { EventOverrideDto, EventResourceDto } from './upsert-event.request';

export class EventTimeResponse {
  @ApiPropertyOptional({
    example: '2026-12-01T10:00:00+05:00',
    description:
      'Wall time in `time_zone` with that zone’s offset at this instant; UTC (`Z`) when the event has no zone',
  })
  date_time?: string;
  @ApiPropertyOptional({ example: '2026-12-01' }) date?: string;
  @ApiPropertyOptional({ example: 'Asia/Almaty' }) time_zone?: string;
}

export class ConferenceResponse {
  @ApiProperty({ enum: ['jitsi', 'stub'], example: 'jitsi' }) provider: string;
  @ApiProperty({ example: 'https://meet.jit.si/Meet-3q2x9Vb0k1LmN4pQ7rS8tU5vW6' }) url: string;
  @ApiProperty({ example: 'Meet-3q2x9Vb0k1LmN4pQ7rS8tU5vW6' }) room_id: string;
  @ApiProperty({ format: 'date-time' }) created_at: string;
}

export class AttendeeResponse {
  @ApiProperty({ enum: ['person', 'email'] }) kind: string;
  @ApiPropertyOptional({ description: 'Person id (kind person)', example: 'person-18' }) id?: string;
  @ApiPropertyOptional({ description: 'Lower-cased email (kind email)', example: 'guest@example.com' })
  email?: string;
  @ApiProperty({ enum: ['REQ-PARTICIPANT', 'OPT-PARTICIPANT'], description: 'iCalendar ROLE' }) role: string;
  @ApiProperty({
    enum: ['NEEDS-ACTION', 'ACCEPTED', 'DECLINED', 'TENTATIVE'],
    description: 'iCalendar PARTSTAT',
  })
  partstat: string;
  @ApiProperty({ nullable: true, type: String, format: 'date-time' }) responded_at: string | null;
  @ApiProperty({ nullable: true, type: String }) comment: string | null;
}

/** Documentation shape of an event as every calendar endpoint returns it (see `EventView`). */
export class EventResponse {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ example: 'crm' }) product_id: string;
  @ApiProperty({ example: 'deal' }) entity_type: string;
  @ApiProperty({ example: 'D-1042' }) entity_id: string;
  @ApiProperty({
    example: 3,
    description: 'Bumped by exactly one on every successful write; the CalDAV ETag',
  })
  version: number;
  @ApiProperty({ nullable: true, type: String, example: 'Contract signing' }) title: string | null;
  @ApiProperty({ nullable: true, type: String }) description: string | null;
  @ApiProperty({ nullable: true, type: String }) location: string | null;
  @ApiProperty({ nullable: true, type: EventTimeResponse }) start: EventTimeResponse | null;
  @ApiProperty({ nullable: true, type: EventTimeResponse }) end: EventTimeResponse | null;
  @ApiProperty() all_day: boolean;
  @ApiProperty({ enum: EVENT_STATUSES }) status: string;
  @ApiProperty({ enum: EVENT_VISIBILITIES }) visibility: string;
  @ApiProperty({ enum: EVENT_TRANSPARENCIES, description: 'opaque: blocks time; transparent: does not' })
  transparency: string;
  @ApiProperty({ nullable: true, type: String, example: 'person-17' }) owner: string | null;
  @ApiProperty({ type: [String] }) assignees: string[];
  @ApiProperty({ type: [EventResourceDto] }) resources: EventResourceDto[];
  @ApiProperty({ type: [String], example: ['RRULE:FREQ=WEEKLY;COUNT=4'] }) recurrence: string[];
  @ApiProperty({
    type: [EventOverrideDto],
    description: 'Moved or cancelled occurrences of the series, as sent',
  })
  overrides: EventOverrideDto[];
  @ApiProperty({ type: 'object', additionalProperties: { type: 'string' } }) metadata: Record<string, string>;
  @ApiPropertyOptional({
    format: 'uuid',
    description: 'An occurrence in a ranged events query: the id of its series (the event)',
  })
  series_id?: string;
  @ApiPropertyOptional({
    example: '2026-12-08T05:00:00Z',
    description: 'An occurrence in a ranged events query: its original start (RECURRENCE-ID)',
  })
  recurrence_id?: string;
  @ApiPropertyOptional({ type: ConferenceResponse, description: 'The conference room, once attached' })
  conference?: ConferenceResponse;
  @ApiPropertyOptional({ type: [AttendeeResponse], description: 'Invited people and guests, if any' })
  attendees?: AttendeeResponse[];
  @ApiProperty({ format: 'date-time' }) created_at: string;
  @ApiProperty({ format: 'date-time' }) updated_at: string;
}

/** What a FreeBusy-only integration gets instead of an event. */
export class BusyBlockResponse {
  @ApiProperty({ nullable: true, type: EventTimeResponse }) start: EventTimeResponse | null;
  @ApiProperty({ nullable: true, type: EventTimeResponse }) end: EventTimeResponse | null;
  @ApiProperty() all_day: boolean;
  @ApiProperty({ enum: ['busy', 'tentative'] }) free_busy: string;
}
