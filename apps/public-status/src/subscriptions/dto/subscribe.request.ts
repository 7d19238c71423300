import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ArrayMaxSize, ArrayUnique, IsArray, IsEmail, IsString, Matches } from 'class-validator';
import { MaxChars } from '@platform/envelope';
import { OptionalField } from '../../status/optional-field';
import { SLUG_PATTERN } from '../../status/states';
import { SUBSCRIPTION_TOKEN_PATTERN } from '../subscription-tokens';

export class SubscribeRequest {
  @ApiProperty({ description: "The business's public slug", example: 'acme' })
  @IsString()
  @Matches(SLUG_PATTERN)
  business: string;

  @ApiPropertyOptional({
    type: [String],
    example: ['api'],
    description: 'Public product slugs; omitted or empty: the whole business',
  })
  @OptionalField()
  @IsArray()
  @ArrayMaxSize(50)
  @ArrayUnique()
  @Matches(SLUG_PATTERN, { each: true })
  products?: string[];

  @ApiPropertyOptional({
    example: 'ops@example.com',
    description: 'Email subscriber: a confirmation link is mailed; nothing else is sent before it is visited',
  })
  @OptionalField()
  @IsString()
  @MaxChars(254)
  @IsEmail({
    allow_display_name: false,
    allow_ip_domain: false,
    require_tld: true,
    allow_utf8_local_part: false,
  })
  email?: string;

  @ApiPropertyOptional({
    example: 'https://hooks.example.com/status',
    description:
      'Webhook subscriber: an https URL reaching a public address; its signing secret is returned once',
  })
  @OptionalField()
  @IsString()
  @MaxChars(2048)
  webhook?: string;
}

export class SubscriptionTokenQuery {
  @ApiProperty({ description: 'The token of the link that was mailed (or returned)' })
  @IsString()
  @Matches(SUBSCRIPTION_TOKEN_PATTERN)
  token: string;
}
