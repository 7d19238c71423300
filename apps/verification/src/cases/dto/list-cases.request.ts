import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional, IsString } from 'class-validator';
import { IsInstant, MaxChars, QueryInt } from '@platform/envelope';
import { CASE_STATUSES, type CaseStatus } from '../case-statuses';

export class ListCasesRequest {
  @ApiPropertyOptional({ description: "Caller's own application number", example: 'APP-2026-0042' })
  @IsOptional()
  @IsString()
  @MaxChars(128)
  externalReferenceId?: string;

  @ApiPropertyOptional({ enum: CASE_STATUSES, description: 'Only cases in this status' })
  @IsOptional()
  @IsIn(CASE_STATUSES)
  status?: CaseStatus;

  @ApiPropertyOptional({ format: 'date-time', description: 'Created at or after this instant' })
  @IsOptional()
  @IsInstant()
  createdFrom?: string;

  @ApiPropertyOptional({ format: 'date-time', description: 'Created before this instant' })
  @IsOptional()
  @IsInstant()
  createdTo?: string;

  @ApiPropertyOptional({ default: 0, minimum: 0, description: 'Position of the first item, from 0' })
  @IsOptional()
  @QueryInt()
  offset?: number;

  @ApiPropertyOptional({ default: 20, minimum: 1, maximum: 200, description: 'Page size' })
  @IsOptional()
  @QueryInt({ min: 1, max: 200 })
  limit?: number;
}
