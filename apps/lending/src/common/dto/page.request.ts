import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional } from 'class-validator';
import { QueryInt } from '@platform/envelope';

/** The spec's paging: `Offset` (start position) and `Count` (page size). */
export class PageRequest {
  @ApiPropertyOptional({ default: 0, minimum: 0, description: 'Position of the first item, from 0' })
  @IsOptional()
  @QueryInt()
  Offset?: number;

  @ApiPropertyOptional({ default: 20, minimum: 1, maximum: 500, description: 'Page size' })
  @IsOptional()
  @QueryInt({ min: 1, max: 500 })
  Count?: number;
}
