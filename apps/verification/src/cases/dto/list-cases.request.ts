import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString } from 'class-validator';
import { MaxChars, QueryInt } from '@platform/envelope';

export class ListCasesRequest {
  @ApiPropertyOptional({ description: "Caller's own application number", example: 'APP-2026-0042' })
  @IsOptional()
  @IsString()
  @MaxChars(128)
  externalReferenceId?: string;

  @ApiPropertyOptional({ default: 0, minimum: 0, description: 'Position of the first item, from 0' })
  @IsOptional()
  @QueryInt()
  offset?: number;

  @ApiPropertyOptional({ default: 20, minimum: 1, maximum: 200, description: 'Page size' })
  @IsOptional()
  @QueryInt({ min: 1, max: 200 })
  limit?: number;
}
