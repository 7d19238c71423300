import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsBoolean,
  IsDefined,
  IsIn,
  IsNotEmpty,
  IsObject,
  IsOptional,
  IsString,
  ValidateNested,
} from 'class-validator';
import { INT32_MAX, IntField, IsInstant, MaxChars } from '@platform/envelope';
import { EVENT_LIMITS as L } from '../../events/event-limits';
import { SLOT_SEARCH_LIMITS } from '../slot-request';
import { RESOURCE_REF_MAX } from './freebusy-query.request';

/**
 * The body of `POST /Calendar/findSlots`. The DTO checks types and sizes (hostile input is a field
 * error); the meaning (duration, buffers, step, page size, working hours, cursor) is checked by the
 * slot search itself and refused with a `CALENDAR_AVAILABILITY_*` reason, so each limit is stated once,
 * in `SLOT_SEARCH_LIMITS` and `WORKING_HOURS_LIMITS`.
 */

/** Any 32-bit integer: out-of-range values get the search's own reason, huge ones a field error. */
const AnyInt = () => IntField({ min: -INT32_MAX, max: INT32_MAX });

export class WallSpanDto {
  @ApiProperty({ example: '09:00', description: 'HH:MM, 24-hour' })
  @IsString()
  @MaxChars(16)
  start: string;

  @ApiProperty({ example: '17:00', description: 'HH:MM, 24-hour; 24:00 for the end of the day' })
  @IsString()
  @MaxChars(16)
  end: string;
}

/** A day's spans. 48 bounds the list; more than WORKING_HOURS_LIMITS.spansPerDay (24) gets the search's reason. */
const DaySpans = () =>
  applyDecorators(
    ApiPropertyOptional({ type: [WallSpanDto] }),
    IsOptional(),
    IsArray(),
    ArrayMaxSize(48),
    ValidateNested({ each: true }),
    Type(() => WallSpanDto),
  );

export class WorkingDaysDto {
  @DaySpans() mon?: WallSpanDto[];
  @DaySpans() tue?: WallSpanDto[];
  @DaySpans() wed?: WallSpanDto[];
  @DaySpans() thu?: WallSpanDto[];
  @DaySpans() fri?: WallSpanDto[];
  @DaySpans() sat?: WallSpanDto[];
  @DaySpans() sun?: WallSpanDto[];
}

export class WorkingHoursDto {
  @ApiProperty({ example: 'Europe/Berlin', description: 'IANA time zone of the wall times' })
  @IsString()
  @MaxChars(L.timeZone)
  time_zone: string;

  @ApiProperty({
    type: WorkingDaysDto,
    description: 'mon..sun, each a list of spans that may touch but not overlap; a missing day is off',
  })
  @IsDefined()
  @IsObject()
  @ValidateNested()
  @Type(() => WorkingDaysDto)
  days: WorkingDaysDto;
}

export const PARTICIPANT_KINDS = ['person', 'resource'] as const;
export type ParticipantKindValue = (typeof PARTICIPANT_KINDS)[number];

export class SlotParticipantDto {
  @ApiProperty({ enum: PARTICIPANT_KINDS, example: 'person' })
  @IsIn(PARTICIPANT_KINDS)
  kind: ParticipantKindValue;

  @ApiProperty({ example: 'person-17', description: 'A person id, or a resource as `type:id` (room:r-301)' })
  @IsString()
  @IsNotEmpty()
  @MaxChars(RESOURCE_REF_MAX)
  id: string;

  @ApiPropertyOptional({ default: true, description: 'false: only ranks the slots, never rules one out' })
  @IsOptional()
  @IsBoolean()
  required?: boolean;

  @ApiPropertyOptional({
    type: WorkingHoursDto,
    description: 'When the participant is available; absent: around the clock (typical for a room)',
  })
  @IsOptional()
  @IsObject()
  @ValidateNested()
  @Type(() => WorkingHoursDto)
  working_hours?: WorkingHoursDto;
}

export class SlotRangeDto {
  @ApiProperty({ example: '2026-12-01T00:00:00Z', description: 'Slots start at or after this instant' })
  @IsDefined()
  @IsInstant({ allowDate: true })
  from: string;

  @ApiProperty({
    example: '2026-12-08T00:00:00Z',
    description: 'Slots end at or before this instant; at most 31 days after from',
  })
  @IsDefined()
  @IsInstant({ allowDate: true })
  to: string;
}

export const SLOT_DEFAULTS = { granularityMinutes: 15, maxResults: 50 } as const;

export class FindSlotsRequest {
  @ApiProperty({ type: [SlotParticipantDto], description: 'People and resources, ids unique per kind' })
  @IsDefined()
  @IsArray()
  // Like free/busy: a search with nobody in it has no answer worth giving (every grid slot).
  @ArrayMinSize(1)
  @ArrayMaxSize(SLOT_SEARCH_LIMITS.maxParticipants)
  @ValidateNested({ each: true })
  @Type(() => SlotParticipantDto)
  participants: SlotParticipantDto[];

  @ApiProperty({ example: 30, minimum: 1, maximum: 1440, description: 'Length of the meeting, minutes' })
  @IsDefined()
  @AnyInt()
  duration_minutes: number;

  @ApiProperty({ type: SlotRangeDto })
  @IsDefined()
  @IsObject()
  @ValidateNested()
  @Type(() => SlotRangeDto)
  range: SlotRangeDto;

  @ApiPropertyOptional({ default: 0, minimum: 0, maximum: 240, description: 'Free minutes needed before' })
  @IsOptional()
  @AnyInt()
  buffer_before_minutes?: number;

  @ApiPropertyOptional({ default: 0, minimum: 0, maximum: 240, description: 'Free minutes needed after' })
  @IsOptional()
  @AnyInt()
  buffer_after_minutes?: number;

  @ApiPropertyOptional({
    default: SLOT_DEFAULTS.granularityMinutes,
    minimum: 5,
    description: 'Minutes between candidate starts, on a grid from midnight UTC; must divide 1440',
  })
  @IsOptional()
  @AnyInt()
  granularity_minutes?: number;

  @ApiPropertyOptional({
    default: SLOT_DEFAULTS.maxResults,
    minimum: 1,
    maximum: 500,
    description: 'Page size',
  })
  @IsOptional()
  @AnyInt()
  max_results?: number;

  @ApiPropertyOptional({ default: false, description: 'Treat tentative time as free, for everyone' })
  @IsOptional()
  @IsBoolean()
  tentative_as_free?: boolean;

  @ApiPropertyOptional({
    default: false,
    description: 'Also list the rejected starts and who rules them out',
  })
  @IsOptional()
  @IsBoolean()
  explain?: boolean;

  @ApiPropertyOptional({ type: String, nullable: true, description: 'next_cursor of the previous page' })
  @IsOptional()
  @IsString()
  @MaxChars(256)
  cursor?: string | null;
}
