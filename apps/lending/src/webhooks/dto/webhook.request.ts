import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsUUID } from 'class-validator';
import { QueryInt } from '@platform/envelope';
import {
  WebhookDeliveryStatusFilter,
  webhookCreateRequest,
  webhookRotateRequest,
  webhookUpdateRequest,
  type WebhookApiDocs,
  type WebhookDeliveryStatus,
} from '@platform/webhooks';
import { OptionalField } from '../../common/dto/optional-field';
import { WEBHOOK_EVENT_TYPES } from '../webhook-events';

/** What lending's webhook classes say in its own words (libs/webhooks documents and validates them). */
export const WEBHOOK_SUBSCRIPTION_DOCS: WebhookApiDocs = {
  noun: 'subscription',
  urlExample: 'https://hooks.example.com/lending',
  events: {
    enum: WEBHOOK_EVENT_TYPES,
    description:
      'The events this subscription receives (at least one): notifications (`lending.notification.…`), bureau (`lending.bureau.…`) and accounting (`lending.accounting.…`) events',
    example: ['lending.notification.payment-overdue', 'lending.notification.repayment-received'],
    maxItems: WEBHOOK_EVENT_TYPES.length,
  },
  noteExample: 'Collections CRM, production',
  pauseDescription: 'false pauses the subscription: events that happen meanwhile are not delivered to it',
  // Absent, not null: a null would reach a NOT NULL column.
  optional: OptionalField,
};

export class CreateWebhookSubscriptionRequest extends webhookCreateRequest(WEBHOOK_SUBSCRIPTION_DOCS) {}

/** DeleteSubscription: the subscription, with its deliveries and their log. */
export class SubscriptionIdRequest {
  @ApiProperty({ format: 'uuid', description: 'The subscription' })
  @IsUUID()
  subscriptionId: string;
}

export class UpdateWebhookSubscriptionRequest extends webhookUpdateRequest(
  WEBHOOK_SUBSCRIPTION_DOCS,
  SubscriptionIdRequest,
) {}

export class RotateWebhookSecretRequest extends webhookRotateRequest(
  WEBHOOK_SUBSCRIPTION_DOCS,
  SubscriptionIdRequest,
) {}

export class SubscriptionIdQuery {
  @ApiProperty({ format: 'uuid', description: 'The subscription' })
  @IsUUID()
  SubscriptionId: string;
}

/** The delivery log, newest first; each delivery with its attempts. */
export class GetWebhookDeliveriesRequest {
  @ApiPropertyOptional({ format: 'uuid', description: "Only this subscription's deliveries" })
  @IsOptional()
  @IsUUID()
  SubscriptionId?: string;

  @WebhookDeliveryStatusFilter()
  Status?: WebhookDeliveryStatus;

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
