import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, IsIn, IsString, Matches } from 'class-validator';
import { IntField, MaxChars, MinChars } from '@platform/envelope';
import { COMPONENT_STATES, SLUG_PATTERN, type ComponentState } from '../../status/states';
import { OptionalField } from '../../status/optional-field';

const SLUG_TEXT = 'Lower-case letters, digits and hyphens, 1-64 characters: the public identifier';

export class ProductPath {
  @ApiProperty({ description: SLUG_TEXT, example: 'api' })
  @IsString()
  @Matches(SLUG_PATTERN)
  product: string;
}

export class ResourcePath extends ProductPath {
  @ApiProperty({ description: SLUG_TEXT, example: 'database' })
  @IsString()
  @Matches(SLUG_PATTERN)
  resource: string;
}

export class UpdateBusinessRequest {
  @ApiPropertyOptional({ example: 'Acme' })
  @OptionalField()
  @IsString()
  @MinChars(1)
  @MaxChars(200)
  name?: string;
  @ApiPropertyOptional({ description: SLUG_TEXT, example: 'acme' })
  @OptionalField()
  @IsString()
  @Matches(SLUG_PATTERN)
  slug?: string;
  @ApiPropertyOptional({ example: true }) @OptionalField() @IsBoolean() published?: boolean;
}

/** A product or resource, created or changed in place (PUT by slug). */
export class PutCatalogItemRequest {
  @ApiProperty({ example: 'Public API' }) @IsString() @MinChars(1) @MaxChars(200) name: string;
  @ApiPropertyOptional({ default: false }) @OptionalField() @IsBoolean() published?: boolean;
  @ApiPropertyOptional({ default: 0 }) @OptionalField() @IntField({ min: 0, max: 10_000 }) sortOrder?: number;
}

export class SetStateRequest {
  @ApiProperty({ enum: COMPONENT_STATES, example: 'degraded_performance' })
  @IsIn(COMPONENT_STATES)
  state: ComponentState;
  @ApiPropertyOptional({ example: 'Slow queries on the primary' })
  @OptionalField()
  @IsString()
  @MaxChars(500)
  note?: string;
}
