import { ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsIn, IsOptional, IsString, Matches } from 'class-validator';
import { IsInstant, MaxChars, QueryInt } from '@platform/envelope';
import { EVENT_STATUSES, RESOURCE_TYPES, type EventStatus } from '../calendar-event.entity';
import { EVENT_LIMITS as L } from '../event-limits';

/** `a,b` or repeated `?x=a&x=b` both become a list. */
const toList = ({ value }: { value: unknown }) =>
  (Array.isArray(value) ? value : String(value).split(',')).map((v) => String(v).trim()).filter(Boolean);

/** `type:id` as events store their resources, e.g. `room:r-301`. */
const RESOURCE_REF = new RegExp(`^(${RESOURCE_TYPES.join('|')}):\\S+$`);

export const EVENT_SORTS = ['start', '-start', 'updated', '-updated'] as const;

export class EventsQueryRequest {
  @ApiPropertyOptional({
    example: '2026-12-01T00:00:00Z',
    description: 'Range start (events overlapping [from, to))',
  })
  @IsOptional()
  @IsInstant({ allowDate: true })
  from?: string;

  @ApiPropertyOptional({
    description: 'End of the range (exclusive), with `from`',
    example: '2026-12-08T00:00:00Z',
  })
  @IsOptional()
  @IsInstant({ allowDate: true })
  to?: string;

  @ApiPropertyOptional({
    type: [String],
    description: 'Person ids (owner or assignee), comma-separated or repeated',
  })
  @IsOptional()
  @Transform(toList)
  @IsArray()
  @ArrayMaxSize(50)
  @IsString({ each: true })
  @MaxChars(L.personId, { each: true })
  person?: string[];

  @ApiPropertyOptional({ description: 'Team id: events of all its members' })
  @IsOptional()
  @IsString()
  @MaxChars(64)
  team?: string;

  @ApiPropertyOptional({
    type: [String],
    example: ['room:r-301'],
    description: '`type:id` of rooms or equipment',
  })
  @IsOptional()
  @Transform(toList)
  @IsArray()
  @ArrayMaxSize(50)
  @IsString({ each: true })
  @MaxChars(L.resourceId + 16, { each: true })
  @Matches(RESOURCE_REF, { each: true })
  resource?: string[];

  @ApiPropertyOptional({ type: [String], description: 'Owning products' })
  @IsOptional()
  @Transform(toList)
  @IsArray()
  @ArrayMaxSize(50)
  @IsString({ each: true })
  @MaxChars(L.productId, { each: true })
  product?: string[];

  @ApiPropertyOptional({ enum: EVENT_STATUSES, isArray: true, description: 'Only events in these states' })
  @IsOptional()
  @Transform(toList)
  @IsArray()
  @ArrayMaxSize(EVENT_STATUSES.length)
  @IsIn(EVENT_STATUSES, { each: true })
  status?: EventStatus[];

  @ApiPropertyOptional({ description: 'Words in title, description or location' })
  @IsOptional()
  @IsString()
  @MaxChars(200)
  text?: string;

  @ApiPropertyOptional({
    enum: EVENT_SORTS,
    default: 'start',
    description: 'Order: by start or by last change; a leading `-` reverses it',
  })
  @IsOptional()
  @IsIn(EVENT_SORTS)
  sort?: (typeof EVENT_SORTS)[number];

  @ApiPropertyOptional({ default: 0, minimum: 0, description: 'Position of the first item, from 0' })
  @IsOptional()
  @QueryInt()
  offset?: number;

  @ApiPropertyOptional({ default: 50, minimum: 1, maximum: 250, description: 'Page size' })
  @IsOptional()
  @QueryInt({ min: 1, max: 250 })
  limit?: number;
}
