import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { PARTICIPANT_KINDS } from './find-slots.request';

/** Documentation shapes of the free/busy and slot-search answers (built in availability.service.ts). */

export class ParticipantRefResponse {
  @ApiProperty({ enum: PARTICIPANT_KINDS, example: 'person' }) kind: string;
  @ApiProperty({ example: 'person-17', description: 'As sent: a person id or a resource `type:id`' })
  id: string;
}

export class BusyIntervalResponse {
  @ApiProperty({ format: 'date-time', example: '2026-12-01T09:00:00.000Z' }) start: string;
  @ApiProperty({ format: 'date-time', example: '2026-12-01T10:30:00.000Z', description: 'Exclusive' })
  end: string;
  @ApiProperty({
    enum: ['busy', 'tentative'],
    description: 'busy: confirmed events; tentative: tentative ones (busy wins where both)',
  })
  status: string;
}

export class FreeBusyItemResponse {
  @ApiProperty({ type: ParticipantRefResponse }) participant: ParticipantRefResponse;
  @ApiProperty({
    type: [BusyIntervalResponse],
    description: 'Merged, sorted, cut to the range; no titles, locations, attendees or ids',
  })
  busy: BusyIntervalResponse[];
}

export class SlotResponse {
  @ApiProperty({ format: 'date-time', example: '2026-12-01T13:00:00.000Z' }) start: string;
  @ApiProperty({ format: 'date-time', example: '2026-12-01T13:30:00.000Z' }) end: string;
  @ApiProperty({
    type: [ParticipantRefResponse],
    description: 'Optional participants free for the slot and its buffers',
  })
  optional_free: ParticipantRefResponse[];
  @ApiProperty({
    type: [ParticipantRefResponse],
    description: 'Optional participants busy, tentative or outside their working hours',
  })
  optional_busy: ParticipantRefResponse[];
}

export class ExclusionResponse {
  @ApiProperty({ type: ParticipantRefResponse }) participant: ParticipantRefResponse;
  @ApiProperty({ enum: ['outside_working_hours', 'busy', 'tentative'] }) reason: string;
}

export class ExcludedSlotResponse {
  @ApiProperty({ format: 'date-time' }) start: string;
  @ApiProperty({ format: 'date-time' }) end: string;
  @ApiProperty({ type: [ExclusionResponse], description: 'Every required participant that rules it out' })
  reasons: ExclusionResponse[];
}

export class FindSlotsResponse {
  @ApiProperty({
    type: [SlotResponse],
    description: 'This page: most optional participants free first, then earliest',
  })
  items: SlotResponse[];
  @ApiProperty({ example: 42, description: 'Slots of the whole search (every page)' }) total: number;
  @ApiProperty({
    type: String,
    nullable: true,
    description: 'Send as cursor for the next page; null on the last one',
  })
  next_cursor: string | null;
  @ApiPropertyOptional({
    type: [ExcludedSlotResponse],
    description: 'With explain: rejected starts of this page, earliest first',
  })
  excluded?: ExcludedSlotResponse[];
  @ApiPropertyOptional({ description: 'With explain: rejected starts of the whole search' })
  total_excluded?: number;
}
