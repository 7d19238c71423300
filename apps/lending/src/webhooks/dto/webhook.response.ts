import { ApiProperty } from '@nestjs/swagger';
import { WEBHOOK_EVENT_TYPES } from '../webhook-events';
import { DELIVERY_STATUSES } from './webhook.request';

const ID = '4f1c2d3e-5a6b-4c7d-8e9f-0a1b2c3d4e5f';
const AT = '2026-11-24T09:15:00.000Z';

/** A subscription as every route but create and rotate answers it: never its secret. */
export class WebhookSubscriptionResponse {
  @ApiProperty({ format: 'uuid', example: ID }) id: string;
  @ApiProperty({ description: 'Where deliveries are POSTed', example: 'https://hooks.example.com/lending' })
  url: string;
  @ApiProperty({
    enum: WEBHOOK_EVENT_TYPES,
    isArray: true,
    example: ['lending.notification.payment-overdue'],
  })
  events: string[];
  @ApiProperty({ type: String, nullable: true, example: 'Collections CRM, production' })
  description: string | null;
  @ApiProperty({ description: 'false: paused, new events are not delivered to it', example: true })
  enabled: boolean;
  @ApiProperty({ format: 'date-time', example: AT }) createdAt: string;
  @ApiProperty({ format: 'date-time', example: AT }) updatedAt: string;
  @ApiProperty({
    type: String,
    format: 'date-time',
    nullable: true,
    description: 'Last secret rotation',
    example: null,
  })
  secretRotatedAt: string | null;
  @ApiProperty({
    type: String,
    format: 'date-time',
    nullable: true,
    description: 'Until then deliveries also carry a signature made with the previous secret',
    example: null,
  })
  previousSecretValidUntil: string | null;
}

/** Create and rotate: the subscription and its signing secret, shown this once and never again. */
export class WebhookSubscriptionWithSecretResponse extends WebhookSubscriptionResponse {
  @ApiProperty({
    description:
      'The signing secret (HMAC-SHA256 key, used exactly as shown): store it now, it is not shown again',
    example: 'whsec_3q2-7wQ8n1Yb0pVhJ2mX5c9R4tLk6ZsA1dF0gH7jK8E',
  })
  secret: string;
}

export class WebhookSubscriptionDeletedResponse {
  @ApiProperty({ format: 'uuid', example: ID }) id: string;
  @ApiProperty({ example: true }) deleted: boolean;
}

export class WebhookAttemptResponse {
  @ApiProperty({ example: 1 }) attemptNo: number;
  @ApiProperty({ format: 'date-time', example: AT }) attemptedAt: string;
  @ApiProperty({
    type: Number,
    nullable: true,
    description: 'HTTP status the receiver answered',
    example: 500,
  })
  responseStatus: number | null;
  @ApiProperty({
    type: String,
    nullable: true,
    description: 'Network error, timeout, refused address or redirect',
    example: 'HTTP 500',
  })
  error: string | null;
  @ApiProperty({ example: 120 }) latencyMs: number;
  @ApiProperty({
    type: String,
    nullable: true,
    description: 'The first 2 KB of the response body',
    example: 'busy',
  })
  responseBody: string | null;
  @ApiProperty({ description: 'The body was longer than what is kept', example: false })
  responseTruncated: boolean;
  @ApiProperty({ enum: ['succeeded', 'retry', 'dead'], example: 'retry' }) outcome: string;
  @ApiProperty({
    type: String,
    format: 'date-time',
    nullable: true,
    description: 'When the next attempt was scheduled for (retry only)',
    example: AT,
  })
  nextAttemptAt: string | null;
}

export class WebhookDeliveryResponse {
  @ApiProperty({
    format: 'uuid',
    description: 'Also the X-Service-Delivery header and `deliveryId` in the body',
    example: ID,
  })
  id: string;
  @ApiProperty({ format: 'uuid', example: ID }) subscriptionId: string;
  @ApiProperty({
    description: 'The event (X-Service-Event)',
    example: 'lending.notification.payment-overdue',
  })
  event: string;
  @ApiProperty({
    description:
      '`eventId` in the body: the same for every subscription receiving the event (for a contract event, its Kafka `event-id`)',
    example: ID,
  })
  eventId: string;
  @ApiProperty({ enum: DELIVERY_STATUSES, example: 'dead' }) status: string;
  @ApiProperty({ description: 'Attempts made so far', example: 15 }) attempts: number;
  @ApiProperty({
    type: String,
    format: 'date-time',
    nullable: true,
    description: 'When the next attempt is due; null when finished (delivered or dead)',
    example: null,
  })
  nextAttemptAt: string | null;
  @ApiProperty({ type: Number, nullable: true, description: 'HTTP status of the last attempt', example: 500 })
  lastResponseStatus: number | null;
  @ApiProperty({
    type: String,
    nullable: true,
    description: 'Why the last attempt failed',
    example: 'HTTP 500',
  })
  lastError: string | null;
  @ApiProperty({ format: 'date-time', example: AT }) createdAt: string;
  @ApiProperty({ type: String, format: 'date-time', nullable: true, example: null }) deliveredAt:
    string | null;
  @ApiProperty({
    type: String,
    format: 'date-time',
    nullable: true,
    description: 'When it went to the dead letters (no attempt left); RedriveDelivery sends it again',
    example: AT,
  })
  deadAt: string | null;
  @ApiProperty({ type: [WebhookAttemptResponse], description: 'Every attempt, oldest first' })
  attemptLog: WebhookAttemptResponse[];
}

export class WebhookRedriveResponse {
  @ApiProperty({ format: 'uuid', description: 'The delivery, pending again and due now', example: ID })
  deliveryId: string;
  @ApiProperty({ enum: DELIVERY_STATUSES, example: 'pending' }) status: string;
}

/** Every event a subscription can choose, with its group. */
export class WebhookEventTypeResponse {
  @ApiProperty({ example: 'lending.notification.payment-overdue' }) event: string;
  @ApiProperty({ enum: ['notification', 'bureau', 'accounting'], example: 'notification' }) group: string;
}
