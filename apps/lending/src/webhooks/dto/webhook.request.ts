import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsBoolean,
  IsIn,
  IsInt,
  IsOptional,
  IsString,
  IsUUID,
  Max,
  Min,
  ValidateIf,
} from 'class-validator';
import { MaxChars, MinChars, QueryInt } from '@platform/envelope';
import { MAX_WEBHOOK_URL_LENGTH } from '@platform/webhooks';
import { OptionalField } from '../../applications/dto/optional-field';
import { WEBHOOK_EVENT_TYPES } from '../webhook-events';

export const DELIVERY_STATUSES = ['pending', 'delivering', 'succeeded', 'dead'] as const;

const URL_DOC = {
  description:
    'Where deliveries are POSTed: https, a public address (private, loopback, link-local, CGNAT, ULA and metadata addresses are refused), no credentials',
  example: 'https://hooks.example.com/lending',
  maxLength: MAX_WEBHOOK_URL_LENGTH,
};
const EVENTS_DOC = {
  enum: WEBHOOK_EVENT_TYPES,
  isArray: true,
  description:
    'The events this subscription receives (at least one): notifications (`lending.notification.…`), bureau (`lending.bureau.…`) and accounting (`lending.accounting.…`) events',
  example: ['lending.notification.payment-overdue', 'lending.notification.repayment-received'],
};
const DESCRIPTION_DOC = {
  type: String,
  nullable: true,
  maxLength: 500,
  description: 'Your note about the subscription',
  example: 'Collections CRM, production',
};

export class CreateWebhookSubscriptionRequest {
  @ApiProperty(URL_DOC)
  @IsString()
  @MinChars(1)
  @MaxChars(MAX_WEBHOOK_URL_LENGTH)
  url: string;

  @ApiProperty(EVENTS_DOC)
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(WEBHOOK_EVENT_TYPES.length)
  @IsIn(WEBHOOK_EVENT_TYPES, { each: true })
  events: string[];

  @ApiPropertyOptional(DESCRIPTION_DOC)
  @IsOptional()
  @IsString()
  @MaxChars(500)
  description?: string | null;
}

export class UpdateWebhookSubscriptionRequest {
  @ApiProperty({ format: 'uuid', description: 'The subscription' })
  @IsUUID()
  subscriptionId: string;

  @ApiPropertyOptional(URL_DOC)
  @OptionalField()
  @IsString()
  @MinChars(1)
  @MaxChars(MAX_WEBHOOK_URL_LENGTH)
  url?: string;

  @ApiPropertyOptional(EVENTS_DOC)
  @OptionalField()
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(WEBHOOK_EVENT_TYPES.length)
  @IsIn(WEBHOOK_EVENT_TYPES, { each: true })
  events?: string[];

  @ApiPropertyOptional({
    description: 'false pauses the subscription: events that happen meanwhile are not delivered to it',
    example: false,
  })
  @OptionalField()
  @IsBoolean()
  enabled?: boolean;

  @ApiPropertyOptional({
    ...DESCRIPTION_DOC,
    description: 'Your note about the subscription; null removes it',
  })
  @IsOptional()
  @ValidateIf((_o, v) => v !== null)
  @IsString()
  @MaxChars(500)
  description?: string | null;
}

/** DeleteSubscription: the subscription, with its deliveries and their log. */
export class SubscriptionIdRequest {
  @ApiProperty({ format: 'uuid', description: 'The subscription' })
  @IsUUID()
  subscriptionId: string;
}

export class SubscriptionIdQuery {
  @ApiProperty({ format: 'uuid', description: 'The subscription' })
  @IsUUID()
  SubscriptionId: string;
}

export class RotateWebhookSecretRequest {
  @ApiProperty({ format: 'uuid', description: 'The subscription' })
  @IsUUID()
  subscriptionId: string;

  @ApiPropertyOptional({
    description:
      'How long the previous secret keeps signing (a second signature), in seconds; 0 retires it at once',
    default: 86_400,
    minimum: 0,
    maximum: 2_592_000,
    example: 86_400,
  })
  @OptionalField()
  @IsInt()
  @Min(0)
  @Max(2_592_000)
  overlapSeconds?: number;
}

/** The delivery log, newest first; each delivery with its attempts. */
export class GetWebhookDeliveriesRequest {
  @ApiPropertyOptional({ format: 'uuid', description: "Only this subscription's deliveries" })
  @IsOptional()
  @IsUUID()
  SubscriptionId?: string;

  @ApiPropertyOptional({ enum: DELIVERY_STATUSES, description: 'Only deliveries in this status' })
  @IsOptional()
  @IsIn(DELIVERY_STATUSES)
  Status?: (typeof DELIVERY_STATUSES)[number];

  @ApiPropertyOptional({ default: 0, minimum: 0, description: 'Position of the first item, from 0' })
  @IsOptional()
  @QueryInt()
  Offset?: number;

  @ApiPropertyOptional({ default: 20, minimum: 1, maximum: 100, description: 'Page size' })
  @IsOptional()
  @QueryInt({ min: 1, max: 100 })
  Count?: number;
}

export class RedriveDeliveryRequest {
  @ApiProperty({ format: 'uuid', description: 'The dead delivery to send again' })
  @IsUUID()
  deliveryId: string;
}
