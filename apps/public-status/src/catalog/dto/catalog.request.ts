import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, IsIn, IsString, Matches, ValidateIf } from 'class-validator';
import { SERVICES } from '@platform/registry';
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
  /** Resources only: null clears it. Ignored on products. */
  @ApiPropertyOptional({
    enum: SERVICES.map((s) => s.name),
    nullable: true,
    type: String,
    description:
      "Resources only: the platform app (libs/registry) whose health reports set this resource's state; null clears it",
    example: 'calendar',
  })
  @ValidateIf((_o, v) => v !== undefined && v !== null)
  @IsIn(SERVICES.map((s) => s.name))
  platformService?: string | null;
  /** Resources only. Ignored on products. */
  @ApiPropertyOptional({
    default: false,
    description:
      'Resources only: when its checks or platform health put it into an outage, open an incident (and resolve it on recovery)',
  })
  @OptionalField()
  @IsBoolean()
  automaticIncidents?: boolean;
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
