import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional } from 'class-validator';
import { QueryInt } from '@platform/envelope';
import {
  WebhookDeliveryStatusFilter,
  webhookCreateRequest,
  webhookRotateRequest,
  webhookUpdateRequest,
  type WebhookApiDocs,
  type WebhookDeliveryStatus,
} from '@platform/webhooks';
import { VERIFICATION_EVENT_TYPES, type VerificationEventType } from '../../events/verification-events';

/** What verification's webhook classes say in its own words (libs/webhooks documents and validates them). */
export const WEBHOOK_ENDPOINT_DOCS: WebhookApiDocs<VerificationEventType> = {
  noun: 'endpoint',
  urlExample: 'https://hooks.example.com/verification',
  events: {
    enum: VERIFICATION_EVENT_TYPES,
    description: 'The events this endpoint receives (at least one)',
    example: ['case.status_changed', 'summary.generated'],
    maxItems: VERIFICATION_EVENT_TYPES.length * 2,
  },
  noteExample: 'Loan origination system, production',
  pauseDescription: 'false pauses the endpoint: new events are not delivered to it',
  // IsOptional: an explicit null passes the DTO too (the library refuses it where it matters).
  optional: IsOptional,
};

export class CreateWebhookEndpointRequest extends webhookCreateRequest(WEBHOOK_ENDPOINT_DOCS) {}

export class UpdateWebhookEndpointRequest extends webhookUpdateRequest(WEBHOOK_ENDPOINT_DOCS) {}

export class RotateWebhookSecretRequest extends webhookRotateRequest(WEBHOOK_ENDPOINT_DOCS) {}

export class ListWebhookDeliveriesRequest {
  @WebhookDeliveryStatusFilter()
  status?: WebhookDeliveryStatus;

  @ApiPropertyOptional({ default: 0, minimum: 0, description: 'Position of the first item, from 0' })
  @IsOptional()
  @QueryInt()
  offset?: number;

  @ApiPropertyOptional({ default: 20, minimum: 1, maximum: 200, description: 'Page size' })
  @IsOptional()
  @QueryInt({ min: 1, max: 200 })
  limit?: number;
}
