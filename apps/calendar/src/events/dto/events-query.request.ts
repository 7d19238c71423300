import { ApiPropertyOptional } from '@nestjs/swagger';
import { Transform, Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsIn,
  IsInt,
  IsISO8601,
  IsOptional,
  IsString,
  Max,
  MaxLength,
  Min,
} from 'class-validator';
import { EVENT_STATUSES, type EventStatus } from '../calendar-event.entity';

/** `a,b` or repeated `?x=a&x=b` both become a list. */
const toList = ({ value }: { value: unknown }) =>
  (Array.isArray(value) ? value : String(value).split(',')).map((v) => String(v).trim()).filter(Boolean);

export const EVENT_SORTS = ['start', '-start', 'updated', '-updated'] as const;

export class EventsQueryRequest {
  @ApiPropertyOptional({
    example: '2026-12-01T00:00:00Z',
    description: 'Range start (events overlapping [from, to))',
  })
  @IsOptional()
  @IsISO8601({ strict: true })
  from?: string;

  @ApiPropertyOptional({ example: '2026-12-08T00:00:00Z' })
  @IsOptional()
  @IsISO8601({ strict: true })
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
  person?: string[];

  @ApiPropertyOptional({ description: 'Team id: events of all its members' })
  @IsOptional()
  @IsString()
  @MaxLength(64)
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
  resource?: string[];

  @ApiPropertyOptional({ type: [String], description: 'Owning products' })
  @IsOptional()
  @Transform(toList)
  @IsArray()
  @ArrayMaxSize(50)
  @IsString({ each: true })
  product?: string[];

  @ApiPropertyOptional({ enum: EVENT_STATUSES, isArray: true })
  @IsOptional()
  @Transform(toList)
  @IsArray()
  @IsIn(EVENT_STATUSES, { each: true })
  status?: EventStatus[];

  @ApiPropertyOptional({ description: 'Words in title, description or location' })
  @IsOptional()
  @IsString()
  @MaxLength(200)
  text?: string;

  @ApiPropertyOptional({ enum: EVENT_SORTS, default: 'start' })
  @IsOptional()
  @IsIn(EVENT_SORTS)
  sort?: (typeof EVENT_SORTS)[number];

  @ApiPropertyOptional({ default: 0, minimum: 0 })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(0)
  offset?: number;

  @ApiPropertyOptional({ default: 50, minimum: 1, maximum: 250 })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(250)
  limit?: number;
}
