import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional, IsString, Matches } from 'class-validator';
import { IsCalendarDate, QueryInt } from '@platform/envelope';
import { SLUG_PATTERN } from '../../status/states';

const BUSINESS_TEXT = "The business's public slug";
const PRODUCT_TEXT = "The product's public id (its slug)";

export class BusinessQuery {
  @ApiProperty({ description: BUSINESS_TEXT, example: 'acme' })
  @IsString()
  @Matches(SLUG_PATTERN)
  business: string;
}

export class ProductsQuery {
  @ApiPropertyOptional({ description: BUSINESS_TEXT, example: 'acme' })
  @IsOptional()
  @IsString()
  @Matches(SLUG_PATTERN)
  business?: string;
  @ApiPropertyOptional({ default: 0, minimum: 0, description: 'Position of the first item, from 0' })
  @IsOptional()
  @QueryInt({ min: 0, max: 100_000 })
  offset?: number;
  @ApiPropertyOptional({ default: 100, minimum: 1, maximum: 500, description: 'Page size' })
  @IsOptional()
  @QueryInt({ min: 1, max: 500 })
  limit?: number;
}

export class ProductQuery extends BusinessQuery {
  @ApiProperty({ description: PRODUCT_TEXT, example: 'api' })
  @IsString()
  @Matches(SLUG_PATTERN)
  product: string;
}

/** A range as `days` back from today, or `from`/`to` calendar dates (UTC, inclusive). */
export class ProductUptimeQuery extends ProductQuery {
  @ApiPropertyOptional({
    default: 90,
    minimum: 1,
    maximum: 366,
    description: 'The last N days, today included',
  })
  @IsOptional()
  @QueryInt({ min: 1, max: 366 })
  days?: number;
  @ApiPropertyOptional({
    format: 'date',
    example: '2026-11-01',
    description: 'First day, inclusive (UTC); instead of `days`',
  })
  @IsOptional()
  @IsCalendarDate()
  from?: string;
  @ApiPropertyOptional({ format: 'date', example: '2026-11-23', description: 'Default: today (UTC)' })
  @IsOptional()
  @IsCalendarDate()
  to?: string;
}

export class UptimeHistoryQuery extends BusinessQuery {
  @ApiPropertyOptional({ description: PRODUCT_TEXT, example: 'api' })
  @IsOptional()
  @IsString()
  @Matches(SLUG_PATTERN)
  product?: string;
  @ApiPropertyOptional({
    format: 'date',
    example: '2025-11-24',
    description: 'Default: 365 days before `to`',
  })
  @IsOptional()
  @IsCalendarDate()
  from?: string;
  @ApiPropertyOptional({ format: 'date', example: '2026-11-23', description: 'Default: today (UTC)' })
  @IsOptional()
  @IsCalendarDate()
  to?: string;
}

export const STATUS_PAGE_FORMATS = ['json', 'statuspage'] as const;

export class StatusPageQuery extends BusinessQuery {
  @ApiPropertyOptional({
    enum: STATUS_PAGE_FORMATS,
    default: 'json',
    description: '`statuspage`: the Atlassian Statuspage `summary.json` shape, without the envelope',
  })
  @IsOptional()
  @IsIn(STATUS_PAGE_FORMATS)
  format?: (typeof STATUS_PAGE_FORMATS)[number];
}

export const HISTORY_KINDS = ['incidents', 'maintenances'] as const;

export class StatusPageHistoryQuery extends BusinessQuery {
  @ApiPropertyOptional({
    enum: HISTORY_KINDS,
    default: 'incidents',
    description: 'Resolved incidents or completed maintenance',
  })
  @IsOptional()
  @IsIn(HISTORY_KINDS)
  kind?: (typeof HISTORY_KINDS)[number];
  @ApiPropertyOptional({ default: 1, minimum: 1, description: 'Page number, from 1' })
  @IsOptional()
  @QueryInt({ min: 1, max: 10_000 })
  page?: number;
  @ApiPropertyOptional({ default: 20, minimum: 1, maximum: 100, description: 'Page size' })
  @IsOptional()
  @QueryInt({ min: 1, max: 100 })
  per_page?: number;
}
