import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsBoolean,
  IsIn,
  IsNotEmpty,
  IsOptional,
  IsString,
  ValidateNested,
} from 'class-validator';
import { FreeFormMap, IntField, IsInstant, MaxChars } from '@platform/envelope';
import {
  EVENT_STATUSES,
  EVENT_TRANSPARENCIES,
  EVENT_VISIBILITIES,
  RESOURCE_TYPES,
  type EventStatus,
  type EventTransparency,
  type EventVisibility,
  type ResourceType,
} from '../calendar-event.entity';
import { EVENT_LIMITS as L } from '../event-limits';
import { EventTimeDto } from './event-time.dto';

export class EventResourceDto {
  @ApiProperty({ enum: RESOURCE_TYPES, example: 'room' })
  @IsIn(RESOURCE_TYPES)
  type: ResourceType;

  @ApiProperty({ example: 'room-301' })
  @IsString()
  @IsNotEmpty()
  @MaxChars(L.resourceId)
  id: string;
}

/**
 * One occurrence of a series changed or cancelled (iCalendar RECURRENCE-ID): the occurrence whose
 * original start is `recurrence_id` is cancelled, or moved to `start`/`end` (the series' duration when
 * `end` is absent).
 */
export class EventOverrideDto {
  @ApiProperty({
    example: '2026-12-08T10:00:00+05:00',
    description:
      'The occurrence’s original start: an instant with offset or Z; for an all-day series its date (YYYY-MM-DD)',
  })
  @IsString()
  @MaxChars(64)
  @IsInstant({ allowDate: true })
  recurrence_id: string;

  @ApiPropertyOptional({ example: true, description: 'true: the occurrence does not take place' })
  @IsOptional()
  @IsBoolean()
  cancelled?: boolean;

  @ApiPropertyOptional({ type: EventTimeDto, description: 'New start of a moved occurrence' })
  @IsOptional()
  @ValidateNested()
  @Type(() => EventTimeDto)
  start?: EventTimeDto;

  @ApiPropertyOptional({ type: EventTimeDto, description: 'New end (default: start + the series’ duration)' })
  @IsOptional()
  @ValidateNested()
  @Type(() => EventTimeDto)
  end?: EventTimeDto;
}

/** The identity triple, as every calendar endpoint addresses an event. */
export class EventIdentityDto {
  @ApiPropertyOptional({
    description: 'Owning product; defaults to the ProductId header, must equal it',
    example: 'crm',
  })
  @IsOptional()
  @IsString()
  @MaxChars(L.productId)
  product_id?: string;

  @ApiProperty({ description: 'Type of the product entity', example: 'deal' })
  @IsString()
  @IsNotEmpty()
  @MaxChars(L.entityType)
  entity_type: string;

  @ApiProperty({ description: 'Id of the entity in the product', example: 'D-1042' })
  @IsString()
  @IsNotEmpty()
  @MaxChars(L.entityId)
  entity_id: string;
}

/**
 * Create or replace an event. Every field other than the identity and version is replaced by what is
 * sent (an absent field is cleared), so a product always states its whole fact.
 */
export class UpsertEventRequest extends EventIdentityDto {
  @ApiPropertyOptional({ description: 'Version the caller saw last; absent or 0 to create', example: 0 })
  @IsOptional()
  @IntField({ min: 0 })
  version?: number;

  @ApiPropertyOptional({ example: 'Contract signing', maxLength: 500 })
  @IsOptional()
  @IsString()
  @MaxChars(L.title)
  title?: string;

  @ApiPropertyOptional({ example: 'Bring the signed annex.', maxLength: 10000 })
  @IsOptional()
  @IsString()
  @MaxChars(L.description)
  description?: string;

  @ApiPropertyOptional({ example: 'Office 3, room 301', maxLength: 1000 })
  @IsOptional()
  @IsString()
  @MaxChars(L.location)
  location?: string;

  @ApiPropertyOptional({ type: EventTimeDto })
  @IsOptional()
  @ValidateNested()
  @Type(() => EventTimeDto)
  start?: EventTimeDto;

  @ApiPropertyOptional({
    type: EventTimeDto,
    description: 'Exclusive end; defaults to start (timed) or the next day (all-day)',
  })
  @IsOptional()
  @ValidateNested()
  @Type(() => EventTimeDto)
  end?: EventTimeDto;

  @ApiPropertyOptional({ enum: EVENT_STATUSES, default: 'confirmed' })
  @IsOptional()
  @IsIn(EVENT_STATUSES)
  status?: EventStatus;

  @ApiPropertyOptional({ enum: EVENT_VISIBILITIES, default: 'default' })
  @IsOptional()
  @IsIn(EVENT_VISIBILITIES)
  visibility?: EventVisibility;

  @ApiPropertyOptional({
    enum: EVENT_TRANSPARENCIES,
    default: 'opaque',
    description: 'iCalendar TRANSP: a transparent event blocks no time in free/busy and slot search',
  })
  @IsOptional()
  @IsIn(EVENT_TRANSPARENCIES)
  transparency?: EventTransparency;

  @ApiPropertyOptional({
    description: 'Person id of the owner (identity provider subject)',
    example: 'person-17',
  })
  @IsOptional()
  @IsString()
  @MaxChars(L.personId)
  owner?: string;

  @ApiPropertyOptional({ type: [String], example: ['person-18'], maxItems: 100 })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(100)
  @IsString({ each: true })
  @MaxChars(L.personId, { each: true })
  assignees?: string[];

  @ApiPropertyOptional({ type: [EventResourceDto], maxItems: 50 })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(50)
  @ValidateNested({ each: true })
  @Type(() => EventResourceDto)
  resources?: EventResourceDto[];

  @ApiPropertyOptional({
    type: [String],
    example: ['RRULE:FREQ=WEEKLY;BYDAY=MO;COUNT=10'],
    description:
      'RFC 5545 RRULE/EXRULE/RDATE/EXDATE lines, checked against the start (400 CALENDAR_RECURRENCE_INVALID with the reason); expanded by /Calendar/expand, /Calendar/events and free/busy',
  })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(20)
  @IsString({ each: true })
  @MaxChars(L.recurrenceLine, { each: true })
  recurrence?: string[];

  @ApiPropertyOptional({
    type: [EventOverrideDto],
    maxItems: 1000,
    example: [
      { recurrence_id: '2026-12-08T10:00:00+05:00', cancelled: true },
      {
        recurrence_id: '2026-12-15T10:00:00+05:00',
        start: { date_time: '2026-12-15T14:00:00+05:00', time_zone: 'Asia/Almaty' },
      },
    ],
    description:
      'Moved or cancelled single occurrences, stored with the series (400 CALENDAR_RECURRENCE_OVERRIDE_INVALID when one does not fit it)',
  })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(1000)
  @ValidateNested({ each: true })
  @Type(() => EventOverrideDto)
  overrides?: EventOverrideDto[];

  @ApiPropertyOptional({
    example: { stage: 'negotiation' },
    description: 'Up to 50 string values, keys up to 64 characters',
  })
  @IsOptional()
  @FreeFormMap({
    maxEntries: L.metadataEntries,
    maxKeyChars: L.metadataKey,
    maxValueChars: L.metadataValue,
  })
  metadata?: Record<string, string>;
}

export class RemoveEventRequest extends EventIdentityDto {
  @ApiPropertyOptional({ description: 'When sent, the removal happens only at this version (409 otherwise)' })
  @IsOptional()
  @IntField({ min: 1 })
  version?: number;
}
