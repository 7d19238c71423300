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
  Max,
  Min,
  ValidateIf,
} from 'class-validator';
import { MaxChars, MinChars, QueryInt } from '@platform/envelope';
import { MAX_WEBHOOK_URL_LENGTH } from '@platform/webhooks';
import { VERIFICATION_EVENT_TYPES, type VerificationEventType } from '../../events/verification-events';

export const DELIVERY_STATUSES = ['pending', 'delivering', 'succeeded', 'dead'] as const;

const URL_DOC = {
  description:
    'Where deliveries are POSTed: https, a public address (private, loopback, link-local, CGNAT, ULA and metadata addresses are refused), no credentials',
  example: 'https://hooks.example.com/verification',
  maxLength: MAX_WEBHOOK_URL_LENGTH,
};
const EVENTS_DOC = {
  enum: VERIFICATION_EVENT_TYPES,
  isArray: true,
  description: 'The events this endpoint receives (at least one)',
  example: ['case.status_changed', 'summary.generated'],
};
const DESCRIPTION_DOC = {
  type: String,
  nullable: true,
  maxLength: 500,
  description: 'Your note about the endpoint',
  example: 'Loan origination system, production',
};

export class CreateWebhookEndpointRequest {
  @ApiProperty(URL_DOC)
  @IsString()
  @MinChars(1)
  @MaxChars(MAX_WEBHOOK_URL_LENGTH)
  url: string;

  @ApiProperty(EVENTS_DOC)
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(VERIFICATION_EVENT_TYPES.length * 2)
  @IsIn(VERIFICATION_EVENT_TYPES, { each: true })
  events: VerificationEventType[];

  @ApiPropertyOptional(DESCRIPTION_DOC)
  @IsOptional()
  @IsString()
  @MaxChars(500)
  description?: string | null;
}

export class UpdateWebhookEndpointRequest {
  @ApiPropertyOptional(URL_DOC)
  @IsOptional()
  @IsString()
  @MinChars(1)
  @MaxChars(MAX_WEBHOOK_URL_LENGTH)
  url?: string;

  @ApiPropertyOptional(EVENTS_DOC)
  @IsOptional()
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(VERIFICATION_EVENT_TYPES.length * 2)
  @IsIn(VERIFICATION_EVENT_TYPES, { each: true })
  events?: VerificationEventType[];

  @ApiPropertyOptional({
    description: 'false pauses the endpoint: new events are not delivered to it',
    example: false,
  })
  @IsOptional()
  @IsBoolean()
  enabled?: boolean;

  @ApiPropertyOptional({ ...DESCRIPTION_DOC, description: 'Your note about the endpoint; null removes it' })
  @IsOptional()
  @ValidateIf((_o, v) => v !== null)
  @IsString()
  @MaxChars(500)
  description?: string | null;
}

export class RotateWebhookSecretRequest {
  @ApiPropertyOptional({
    description:
      'How long the previous secret keeps signing (a second signature), in seconds; 0 retires it at once',
    default: 86_400,
    minimum: 0,
    maximum: 2_592_000,
    example: 86_400,
  })
  @IsOptional()
  @IsInt()
  @Min(0)
  @Max(2_592_000)
  overlapSeconds?: number;
}

export class ListWebhookDeliveriesRequest {
  @ApiPropertyOptional({ enum: DELIVERY_STATUSES, description: 'Only deliveries in this status' })
  @IsOptional()
  @IsIn(DELIVERY_STATUSES)
  status?: (typeof DELIVERY_STATUSES)[number];

  @ApiPropertyOptional({ default: 0, minimum: 0, description: 'Position of the first item, from 0' })
  @IsOptional()
  @QueryInt()
  offset?: number;

  @ApiPropertyOptional({ default: 20, minimum: 1, maximum: 200, description: 'Page size' })
  @IsOptional()
  @QueryInt({ min: 1, max: 200 })
  limit?: number;
}
