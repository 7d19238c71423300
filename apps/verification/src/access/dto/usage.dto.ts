import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, Matches } from 'class-validator';

export class UsageRequest {
  @ApiPropertyOptional({
    example: '2026-11',
    description: 'Calendar month (UTC), YYYY-MM; default: the current one',
  })
  @IsOptional()
  @Matches(/^(19[7-9]\d|2\d{3})-(0[1-9]|1[0-2])$/)
  month?: string;
}

export class UsageResponse {
  @ApiProperty({ example: '2026-11' }) month: string;
  @ApiProperty({ description: 'Billable checks: cases created in the month (idempotent repeats excluded)' })
  checks: number;
  @ApiProperty() casesCreated: number;
  @ApiProperty() providerSessionsStarted: number;
  @ApiProperty() summariesGenerated: number;
  @ApiProperty() documentsUploaded: number;
}
