import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional } from 'class-validator';
import { QueryInt } from '@platform/envelope';

export class HistoryQuery {
  @ApiPropertyOptional({ default: 100, minimum: 1, maximum: 1000, description: 'Page size' })
  @IsOptional()
  @QueryInt({ min: 1, max: 1000 })
  limit?: number;
}
