import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsNotEmpty, IsOptional, IsString } from 'class-validator';
import { IsInstant, MaxChars, QueryInt } from '@platform/envelope';
import { EVENT_LIMITS as L } from '../../events/event-limits';

export const EXPAND_LIMITS = { defaultLimit: 100, maxLimit: 1000, maxRangeDays: 366 } as const;

/** The occurrences of one event (by its triple) overlapping [from, to), a page at a time. */
export class ExpandRequest {
  @ApiPropertyOptional({
    description: 'Owning product; defaults to the ProductId header (a person must send it)',
    example: 'crm',
  })
  @IsOptional()
  @IsString()
  @MaxChars(L.productId)
  product_id?: string;

  @ApiProperty({ description: 'Type of the product entity', example: 'meeting' })
  @IsString()
  @IsNotEmpty()
  @MaxChars(L.entityType)
  entity_type: string;

  @ApiProperty({ description: 'Id of the entity in the product', example: 'M-7' })
  @IsString()
  @IsNotEmpty()
  @MaxChars(L.entityId)
  entity_id: string;

  @ApiProperty({
    example: '2026-03-01T00:00:00Z',
    description: 'Range start: occurrences overlapping [from, to)',
  })
  @IsInstant({ allowDate: true })
  from: string;

  @ApiProperty({
    example: '2026-04-01T00:00:00Z',
    description: 'Range end (exclusive); at most 366 days after from',
  })
  @IsInstant({ allowDate: true })
  to: string;

  @ApiPropertyOptional({ default: 100, minimum: 1, maximum: 1000, description: 'Occurrences per page' })
  @IsOptional()
  @QueryInt({ min: 1, max: EXPAND_LIMITS.maxLimit })
  limit?: number;

  @ApiPropertyOptional({ description: '`next_cursor` of the previous page (same event and range)' })
  @IsOptional()
  @IsString()
  @MaxChars(512)
  cursor?: string;
}
