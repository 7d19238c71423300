import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, IsIn, IsOptional, IsString, Matches } from 'class-validator';
import { IntField, MaxChars, MinChars, QueryInt } from '@platform/envelope';
import { COMPONENT_REF } from '../../incidents/dto/incident.request';
import { OptionalField } from '../../status/optional-field';

export const CHECK_CODE_PATTERN = /^chk_[a-z2-7]{12}$/;
export const CHECK_METHODS = ['GET', 'HEAD'] as const;
export const CHECK_FAILURE_STATES = ['degraded_performance', 'partial_outage', 'major_outage'] as const;

export class CheckPath {
  @ApiProperty({ example: 'chk_p4k2x9v3q7ab', description: "The check's id" })
  @IsString()
  @Matches(CHECK_CODE_PATTERN)
  check: string;
}

/** A check's whole definition: POST creates one, PUT replaces one (omitted fields take the defaults). */
export class CheckRequest {
  @ApiProperty({ example: 'api/database', description: 'The resource the check sets, as `product/resource`' })
  @IsString()
  @Matches(COMPONENT_REF)
  component: string;
  @ApiProperty({ example: 'Health endpoint' }) @IsString() @MinChars(1) @MaxChars(200) name: string;
  @ApiProperty({
    example: 'https://api.example.com/health',
    description: 'https URL of a public address (checked again after DNS resolution at every run)',
  })
  @IsString()
  @MinChars(1)
  @MaxChars(2048)
  url: string;
  @ApiPropertyOptional({ enum: CHECK_METHODS, default: 'GET' })
  @OptionalField()
  @IsIn(CHECK_METHODS)
  method?: 'GET' | 'HEAD';
  @ApiPropertyOptional({ default: 60, minimum: 10, maximum: 86400 })
  @OptionalField()
  @IntField({ min: 10, max: 86400 })
  intervalSeconds?: number;
  @ApiPropertyOptional({ default: 10000, minimum: 100, maximum: 60000, description: 'Below the interval' })
  @OptionalField()
  @IntField({ min: 100, max: 60000 })
  timeoutMs?: number;
  @ApiPropertyOptional({ default: 200, minimum: 100, maximum: 599 })
  @OptionalField()
  @IntField({ min: 100, max: 599 })
  expectStatusMin?: number;
  @ApiPropertyOptional({
    minimum: 100,
    maximum: 599,
    description: 'Default: 299 when expectStatusMin is not given, else expectStatusMin',
  })
  @OptionalField()
  @IntField({ min: 100, max: 599 })
  expectStatusMax?: number;
  @ApiPropertyOptional({
    example: '"status":"ok"',
    description: 'Text the body (its first 64 KiB) must contain',
  })
  @OptionalField()
  @IsString()
  @MinChars(1)
  @MaxChars(200)
  bodyContains?: string;
  @ApiPropertyOptional({
    default: 3,
    minimum: 1,
    maximum: 20,
    description: 'Consecutive failures to change state',
  })
  @OptionalField()
  @IntField({ min: 1, max: 20 })
  failureThreshold?: number;
  @ApiPropertyOptional({
    minimum: 1,
    maximum: 20,
    description: 'Consecutive successes to recover; default: failureThreshold',
  })
  @OptionalField()
  @IntField({ min: 1, max: 20 })
  recoveryThreshold?: number;
  @ApiPropertyOptional({ enum: CHECK_FAILURE_STATES, default: 'major_outage' })
  @OptionalField()
  @IsIn(CHECK_FAILURE_STATES)
  failureState?: (typeof CHECK_FAILURE_STATES)[number];
  @ApiPropertyOptional({
    minimum: 1,
    maximum: 60000,
    description: 'Answers slower than this count as degraded_performance (unset: latency is not judged)',
  })
  @OptionalField()
  @IntField({ min: 1, max: 60000 })
  slowMs?: number;
  @ApiPropertyOptional({ default: true }) @OptionalField() @IsBoolean() enabled?: boolean;
}

export class CheckResultsQuery {
  @ApiPropertyOptional({ default: 100, minimum: 1, maximum: 1000, description: 'Page size' })
  @IsOptional()
  @QueryInt({ min: 1, max: 1000 })
  limit?: number;
}
