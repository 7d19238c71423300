import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ArrayMaxSize, IsArray, IsString, Matches } from 'class-validator';
import { IsInstant, MaxChars, MinChars } from '@platform/envelope';
import { PUBLIC_CODE_PATTERN } from '../../status/public-code';
import { COMPONENT_REF } from '../../incidents/dto/incident.request';
import { OptionalField } from '../../status/optional-field';

export class MaintenancePath {
  @ApiProperty({ example: 'mnt_p4k2x9v3q7ab', description: "The maintenance's public id" })
  @IsString()
  @Matches(PUBLIC_CODE_PATTERN)
  maintenance: string;
}

export class ScheduleMaintenanceRequest {
  @ApiProperty({ example: 'Database upgrade' }) @IsString() @MinChars(1) @MaxChars(200) name: string;
  @ApiPropertyOptional({ example: 'Writes pause for up to 10 minutes.' })
  @OptionalField()
  @IsString()
  @MaxChars(5000)
  body?: string;
  @ApiProperty({ format: 'date-time', example: '2026-12-01T02:00:00Z' }) @IsInstant() scheduledFor: string;
  @ApiProperty({ format: 'date-time', example: '2026-12-01T03:00:00Z' }) @IsInstant() scheduledUntil: string;
  @ApiPropertyOptional({
    type: [String],
    example: ['api/database'],
    description: 'Affected resources as `product/resource`',
  })
  @OptionalField()
  @IsArray()
  @ArrayMaxSize(100)
  @Matches(COMPONENT_REF, { each: true })
  components?: string[];
}
