import { ApiProperty } from '@nestjs/swagger';
import {
  WEBHOOK_DELIVERY_STATUSES,
  WEBHOOK_EXAMPLE_AT,
  WEBHOOK_EXAMPLE_ID,
  WebhookDeletedResponseBase,
  webhookAttemptResponse,
  webhookDeliveryResponse,
  webhookSubscriptionResponse,
  withWebhookAttemptLog,
  withWebhookSecret,
} from '@platform/webhooks';
import { WEBHOOK_SUBSCRIPTION_DOCS } from './webhook.request';

/** A subscription as every route but create and rotate answers it: never its secret. */
export class WebhookSubscriptionResponse extends webhookSubscriptionResponse(WEBHOOK_SUBSCRIPTION_DOCS) {}

/** Create and rotate: the subscription and its signing secret, shown this once and never again. */
export class WebhookSubscriptionWithSecretResponse extends withWebhookSecret(WebhookSubscriptionResponse) {}

export class WebhookSubscriptionDeletedResponse extends WebhookDeletedResponseBase {}

export class WebhookAttemptResponse extends webhookAttemptResponse({
  responseStatus: 'HTTP status the receiver answered',
  responseTruncated: 'The body was longer than what is kept',
  nextAttemptAt: 'When the next attempt was scheduled for (retry only)',
}) {}

/** A delivery with every attempt (GetDeliveries lists them so). */
export class WebhookDeliveryResponse extends withWebhookAttemptLog(
  webhookDeliveryResponse('subscriptionId', {
    event: { description: 'The event (X-Service-Event)', example: 'lending.notification.payment-overdue' },
    eventId:
      '`eventId` in the body: the same for every subscription receiving the event (for a contract event, its Kafka `event-id`)',
    nextAttemptAt: 'When the next attempt is due; null when finished (delivered or dead)',
    deadAt: 'When it went to the dead letters (no attempt left); RedriveDelivery sends it again',
    example: {
      status: 'dead',
      attempts: 15,
      lastResponseStatus: 500,
      lastError: 'HTTP 500',
      deliveredAt: null,
      deadAt: WEBHOOK_EXAMPLE_AT,
    },
  }),
  WebhookAttemptResponse,
) {}

export class WebhookRedriveResponse {
  @ApiProperty({
    format: 'uuid',
    description: 'The delivery, pending again and due now',
    example: WEBHOOK_EXAMPLE_ID,
  })
  deliveryId: string;
  @ApiProperty({ enum: WEBHOOK_DELIVERY_STATUSES, example: 'pending' }) status: string;
}

/** Every event a subscription can choose, with its group. */
export class WebhookEventTypeResponse {
  @ApiProperty({ example: 'lending.notification.payment-overdue' }) event: string;
  @ApiProperty({ enum: ['notification', 'bureau', 'accounting'], example: 'notification' }) group: string;
}
