import { ApiProperty } from '@nestjs/swagger';
import { VERIFICATION_EVENT_TYPES } from '../../events/verification-events';
import { DELIVERY_STATUSES } from './webhook-endpoint.request';

const ID = '4f1c2d3e-5a6b-4c7d-8e9f-0a1b2c3d4e5f';
const AT = '2026-11-24T09:15:00.000Z';

/** An endpoint as every route but create and rotate answers it: never its secret. */
export class WebhookEndpointResponse {
  @ApiProperty({ format: 'uuid', example: ID }) id: string;
  @ApiProperty({
    description: 'Where deliveries are POSTed',
    example: 'https://hooks.example.com/verification',
  })
  url: string;
  @ApiProperty({ enum: VERIFICATION_EVENT_TYPES, isArray: true, example: ['case.status_changed'] })
  events: string[];
  @ApiProperty({ type: String, nullable: true, example: 'Loan origination system, production' })
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

/** Create and rotate: the endpoint and its signing secret, shown this once and never again. */
export class WebhookEndpointWithSecretResponse extends WebhookEndpointResponse {
  @ApiProperty({
    description:
      'The signing secret (HMAC-SHA256 key, used exactly as shown): store it now, it is not shown again',
    example: 'whsec_3q2-7wQ8n1Yb0pVhJ2mX5c9R4tLk6ZsA1dF0gH7jK8E',
  })
  secret: string;
}

export class WebhookDeletedResponse {
  @ApiProperty({ format: 'uuid', example: ID }) id: string;
  @ApiProperty({ example: true }) deleted: boolean;
}

export class WebhookDeliveryResponse {
  @ApiProperty({
    format: 'uuid',
    description: 'Also the X-Service-Delivery header and `deliveryId` in the body',
    example: ID,
  })
  id: string;
  @ApiProperty({ format: 'uuid', example: ID }) endpointId: string;
  @ApiProperty({
    description: 'The event (X-Service-Event); `ping` for a test delivery',
    example: 'case.status_changed',
  })
  event: string;
  @ApiProperty({
    description: '`eventId` in the body: the same for every endpoint receiving the event',
    example: ID,
  })
  eventId: string;
  @ApiProperty({ enum: DELIVERY_STATUSES, example: 'succeeded' }) status: string;
  @ApiProperty({ description: 'Attempts made so far', example: 1 }) attempts: number;
  @ApiProperty({
    type: String,
    format: 'date-time',
    nullable: true,
    description: 'When the next attempt is due; null when finished',
    example: null,
  })
  nextAttemptAt: string | null;
  @ApiProperty({ type: Number, nullable: true, description: 'HTTP status of the last attempt', example: 200 })
  lastResponseStatus: number | null;
  @ApiProperty({ type: String, nullable: true, description: 'Why the last attempt failed', example: null })
  lastError: string | null;
  @ApiProperty({ format: 'date-time', example: AT }) createdAt: string;
  @ApiProperty({ type: String, format: 'date-time', nullable: true, example: AT }) deliveredAt: string | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true, example: null }) deadAt: string | null;
}

export class WebhookAttemptResponse {
  @ApiProperty({ example: 1 }) attemptNo: number;
  @ApiProperty({ format: 'date-time', example: AT }) attemptedAt: string;
  @ApiProperty({ type: Number, nullable: true, example: 500 }) responseStatus: number | null;
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
  @ApiProperty({ example: false }) responseTruncated: boolean;
  @ApiProperty({ enum: ['succeeded', 'retry', 'dead'], example: 'retry' }) outcome: string;
  @ApiProperty({
    type: String,
    format: 'date-time',
    nullable: true,
    description: 'When the retry was scheduled for',
    example: AT,
  })
  nextAttemptAt: string | null;
}

export class WebhookDeliveryDetailResponse extends WebhookDeliveryResponse {
  @ApiProperty({ type: [WebhookAttemptResponse], description: 'Every attempt, oldest first' })
  attemptLog: WebhookAttemptResponse[];
}

export class WebhookRedriveResponse {
  @ApiProperty({ type: [String], description: 'Deliveries put back to pending, due now', example: [ID] })
  redriven: string[];
}

export class WebhookTestResponse {
  @ApiProperty({
    format: 'uuid',
    description: 'The test delivery (event `ping`); follow it in the delivery log',
    example: ID,
  })
  deliveryId: string;
}
