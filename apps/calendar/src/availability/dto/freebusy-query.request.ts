import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsDefined, IsNotEmpty, IsString, IsOptional, Matches } from 'class-validator';
import { IsInstant, MaxChars } from '@platform/envelope';
import { RESOURCE_TYPES } from '../../events/calendar-event.entity';
import { EVENT_LIMITS as L } from '../../events/event-limits';

/** `a,b` or repeated `?x=a&x=b` both become a list (as in the events query). */
export const toList = ({ value }: { value: unknown }) =>
  (Array.isArray(value) ? value : String(value).split(',')).map((v) => String(v).trim()).filter(Boolean);

/** `type:id` as events store their resources, e.g. `room:r-301`. */
export const RESOURCE_REF = new RegExp(`^(${RESOURCE_TYPES.join('|')}):\\S+$`);
export const RESOURCE_REF_MAX = L.resourceId + 16;

/** Free/busy answers for up to this many people (the "200 people x 30 days") and resources. */
export const FREEBUSY_LIMITS = { people: 200, resources: 100, maxRangeDays: 62 } as const;

export class FreeBusyQueryRequest {
  @ApiProperty({ example: '2026-12-01T00:00:00Z', description: 'Range start (inclusive)' })
  @IsDefined()
  @IsInstant({ allowDate: true })
  from: string;

  @ApiProperty({
    example: '2026-12-08T00:00:00Z',
    description: 'Range end (exclusive); at most 62 days after from',
  })
  @IsDefined()
  @IsInstant({ allowDate: true })
  to: string;

  @ApiPropertyOptional({
    type: [String],
    example: ['person-17', 'person-18'],
    description: 'Person ids, comma-separated or repeated: busy where they own or attend an event',
  })
  @IsOptional()
  @Transform(toList)
  @IsArray()
  @ArrayMaxSize(FREEBUSY_LIMITS.people)
  @IsString({ each: true })
  @IsNotEmpty({ each: true })
  @MaxChars(L.personId, { each: true })
  people?: string[];

  @ApiPropertyOptional({
    type: [String],
    example: ['room:r-301'],
    description: 'Rooms or equipment as `type:id`, comma-separated or repeated',
  })
  @IsOptional()
  @Transform(toList)
  @IsArray()
  @ArrayMaxSize(FREEBUSY_LIMITS.resources)
  @IsString({ each: true })
  @MaxChars(RESOURCE_REF_MAX, { each: true })
  @Matches(RESOURCE_REF, { each: true })
  resources?: string[];
}
