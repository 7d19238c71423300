import { ApiProperty } from '@nestjs/swagger';
import {
  WEBHOOK_EXAMPLE_AT,
  WEBHOOK_EXAMPLE_ID,
  WebhookDeletedResponseBase,
  webhookAttemptResponse,
  webhookDeliveryResponse,
  webhookSubscriptionResponse,
  withWebhookAttemptLog,
  withWebhookSecret,
} from '@platform/webhooks';
import { WEBHOOK_ENDPOINT_DOCS } from './webhook-endpoint.request';

/** An endpoint as every route but create and rotate answers it: never its secret. */
export class WebhookEndpointResponse extends webhookSubscriptionResponse(WEBHOOK_ENDPOINT_DOCS) {}

/** Create and rotate: the endpoint and its signing secret, shown this once and never again. */
export class WebhookEndpointWithSecretResponse extends withWebhookSecret(WebhookEndpointResponse) {}

export class WebhookDeletedResponse extends WebhookDeletedResponseBase {}

export class WebhookDeliveryResponse extends webhookDeliveryResponse('endpointId', {
  event: {
    description: 'The event (X-Service-Event); `ping` for a test delivery',
    example: 'case.status_changed',
  },
  eventId: '`eventId` in the body: the same for every endpoint receiving the event',
  nextAttemptAt: 'When the next attempt is due; null when finished',
  example: {
    status: 'succeeded',
    attempts: 1,
    lastResponseStatus: 200,
    lastError: null,
    deliveredAt: WEBHOOK_EXAMPLE_AT,
    deadAt: null,
  },
}) {}

export class WebhookAttemptResponse extends webhookAttemptResponse({
  nextAttemptAt: 'When the retry was scheduled for',
}) {}

export class WebhookDeliveryDetailResponse extends withWebhookAttemptLog(
  WebhookDeliveryResponse,
  WebhookAttemptResponse,
) {}

export class WebhookRedriveResponse {
  @ApiProperty({
    type: [String],
    description: 'Deliveries put back to pending, due now',
    example: [WEBHOOK_EXAMPLE_ID],
  })
  redriven: string[];
}

export class WebhookTestResponse {
  @ApiProperty({
    format: 'uuid',
    description: 'The test delivery (event `ping`); follow it in the delivery log',
    example: WEBHOOK_EXAMPLE_ID,
  })
  deliveryId: string;
}
