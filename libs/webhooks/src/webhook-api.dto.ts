import { applyDecorators, type Type } from '@nestjs/common';
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
import { MaxChars } from '@platform/envelope';
import type { WebhookAttemptView, WebhookDeliveryView, WebhookSubscriptionView } from './webhook-api.views';
import type { WebhookDeliveryStatus } from './webhook-tables';
import { MAX_PUBLIC_URL_LENGTH } from '@platform/network';

/*
 * The request and response classes of a service's webhook API, documented (OpenAPI) and validated
 * alike; each service names its classes (`export class X extends webhookCreateRequest(DOCS) {}`) and
 * says in WebhookApiDocs what differs: its word for a subscription, examples, event types, and how an
 * absent optional field is told from a null one.
 */

export const WEBHOOK_DELIVERY_STATUSES = [
  'pending',
  'delivering',
  'succeeded',
  'dead',
] as const satisfies readonly WebhookDeliveryStatus[];

/** The examples of the reference. */
export const WEBHOOK_EXAMPLE_ID = '4f1c2d3e-5a6b-4c7d-8e9f-0a1b2c3d4e5f';
export const WEBHOOK_EXAMPLE_AT = '2026-11-24T09:15:00.000Z';

const DESCRIPTION_MAX = 500;
const OVERLAP_MAX_SECONDS = 2_592_000;

export interface WebhookApiDocs<E extends string = string> {
  /** What the service calls a subscription in its texts: `endpoint`, `subscription`. */
  noun: string;
  urlExample: string;
  events: {
    enum: readonly E[];
    description: string;
    /** The request's example; a response shows the first of them. */
    example: E[];
    /** How many a request may list. */
    maxItems: number;
  };
  /** An example of the subscriber's own note about it (`description`). */
  noteExample: string;
  /** The text of `enabled` in a change. */
  pauseDescription: string;
  /** How a change's optional fields (url, events, enabled, overlapSeconds) are skipped when absent. */
  optional: () => PropertyDecorator;
}

const urlDoc = (d: WebhookApiDocs) => ({
  description:
    'Where deliveries are POSTed: https, a public address (private, loopback, link-local, CGNAT, ULA and metadata addresses are refused), no credentials',
  example: d.urlExample,
  maxLength: MAX_PUBLIC_URL_LENGTH,
});
const eventsDoc = (d: WebhookApiDocs) => ({
  enum: d.events.enum,
  isArray: true,
  description: d.events.description,
  example: d.events.example,
});
const noteDoc = (d: WebhookApiDocs) => ({
  type: String,
  nullable: true,
  maxLength: DESCRIPTION_MAX,
  description: `Your note about the ${d.noun}`,
  example: d.noteExample,
});

/** No fields: the default base of the request classes. */
class NoFields {}

/** Subscribe: url, events, description. */
export function webhookCreateRequest<T extends string>(d: WebhookApiDocs<T>) {
  class CreateWebhookSubscription {
    // Empty or too long is the SSRF guard's WEBHOOK_URL_INVALID (422), as the docs say, not a 400.
    @ApiProperty(urlDoc(d))
    @IsString()
    url: string;

    @ApiProperty(eventsDoc(d))
    @IsArray()
    @ArrayMinSize(1)
    @ArrayMaxSize(d.events.maxItems)
    @IsIn(d.events.enum, { each: true })
    events: T[];

    @ApiPropertyOptional(noteDoc(d))
    @IsOptional()
    @IsString()
    @MaxChars(DESCRIPTION_MAX)
    description?: string | null;
  }
  return CreateWebhookSubscription;
}

/** A change: what `Base` has (the subscription's id, where the path does not carry it), then the fields. */
export function webhookUpdateRequest<T extends string, B extends Type<object> = typeof NoFields>(
  d: WebhookApiDocs<T>,
  Base: B = NoFields as B,
) {
  class UpdateWebhookSubscription extends Base {
    @ApiPropertyOptional(urlDoc(d))
    @d.optional()
    @IsString()
    url?: string;

    @ApiPropertyOptional(eventsDoc(d))
    @d.optional()
    @IsArray()
    @ArrayMinSize(1)
    @ArrayMaxSize(d.events.maxItems)
    @IsIn(d.events.enum, { each: true })
    events?: T[];

    @ApiPropertyOptional({ description: d.pauseDescription, example: false })
    @d.optional()
    @IsBoolean()
    enabled?: boolean;

    @ApiPropertyOptional({ ...noteDoc(d), description: `Your note about the ${d.noun}; null removes it` })
    @IsOptional()
    @ValidateIf((_o, v) => v !== null)
    @IsString()
    @MaxChars(DESCRIPTION_MAX)
    description?: string | null;
  }
  return UpdateWebhookSubscription;
}

/** A new secret: what `Base` has, then how long the previous secret keeps signing. */
export function webhookRotateRequest<B extends Type<object> = typeof NoFields>(
  d: Pick<WebhookApiDocs, 'optional'>,
  Base: B = NoFields as B,
) {
  class RotateWebhookSecret extends Base {
    @ApiPropertyOptional({
      description:
        'How long the previous secret keeps signing (a second signature), in seconds; 0 retires it at once',
      default: 86_400,
      minimum: 0,
      maximum: OVERLAP_MAX_SECONDS,
      example: 86_400,
    })
    @d.optional()
    @IsInt()
    @Min(0)
    @Max(OVERLAP_MAX_SECONDS)
    overlapSeconds?: number;
  }
  return RotateWebhookSecret;
}

/** The delivery log's status filter (a query parameter; its name is the service's). */
export const WebhookDeliveryStatusFilter = () =>
  // Applied first to last: the order of `@ApiPropertyOptional @IsOptional @IsIn` written on a property.
  applyDecorators(
    IsIn(WEBHOOK_DELIVERY_STATUSES),
    IsOptional(),
    ApiPropertyOptional({ enum: WEBHOOK_DELIVERY_STATUSES, description: 'Only deliveries in this status' }),
  );

/** A subscription as every route but create and rotate answers it: never its secret. */
export function webhookSubscriptionResponse(d: WebhookApiDocs): Type<WebhookSubscriptionView> {
  class WebhookSubscriptionResponse {
    @ApiProperty({ format: 'uuid', example: WEBHOOK_EXAMPLE_ID }) id: string;
    @ApiProperty({ description: 'Where deliveries are POSTed', example: d.urlExample }) url: string;
    @ApiProperty({ enum: d.events.enum, isArray: true, example: d.events.example.slice(0, 1) })
    events: string[];
    @ApiProperty({ type: String, nullable: true, example: d.noteExample }) description: string | null;
    @ApiProperty({ description: 'false: paused, new events are not delivered to it', example: true })
    enabled: boolean;
    @ApiProperty({ format: 'date-time', example: WEBHOOK_EXAMPLE_AT }) createdAt: string;
    @ApiProperty({ format: 'date-time', example: WEBHOOK_EXAMPLE_AT }) updatedAt: string;
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
  return WebhookSubscriptionResponse;
}

/** Create and rotate: the subscription and its signing secret, shown this once and never again. */
export function withWebhookSecret<B extends Type<object>>(Base: B) {
  class WithWebhookSecret extends Base {
    @ApiProperty({
      description:
        'The signing secret (HMAC-SHA256 key, used exactly as shown): store it now, it is not shown again',
      example: 'whsec_3q2-7wQ8n1Yb0pVhJ2mX5c9R4tLk6ZsA1dF0gH7jK8E',
    })
    secret: string;
  }
  return WithWebhookSecret;
}

export class WebhookDeletedResponseBase {
  @ApiProperty({ format: 'uuid', example: WEBHOOK_EXAMPLE_ID }) id: string;
  @ApiProperty({ example: true }) deleted: boolean;
}

/** What a service says of an attempt in its own words (absent: the field has no description). */
export interface WebhookAttemptDocs {
  responseStatus?: string;
  responseTruncated?: string;
  nextAttemptAt: string;
}

const described = (description: string | undefined) => (description === undefined ? {} : { description });

export function webhookAttemptResponse(d: WebhookAttemptDocs): Type<WebhookAttemptView> {
  class WebhookAttemptResponse {
    @ApiProperty({ example: 1 }) attemptNo: number;
    @ApiProperty({ format: 'date-time', example: WEBHOOK_EXAMPLE_AT }) attemptedAt: string;
    @ApiProperty({ type: Number, nullable: true, ...described(d.responseStatus), example: 500 })
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
    @ApiProperty({ ...described(d.responseTruncated), example: false }) responseTruncated: boolean;
    @ApiProperty({ enum: ['succeeded', 'retry', 'dead'], example: 'retry' }) outcome: string;
    @ApiProperty({
      type: String,
      format: 'date-time',
      nullable: true,
      description: d.nextAttemptAt,
      example: WEBHOOK_EXAMPLE_AT,
    })
    nextAttemptAt: string | null;
  }
  return WebhookAttemptResponse;
}

/** What a service says of a delivery in its own words, and the example it shows. */
export interface WebhookDeliveryDocs {
  event: { description: string; example: string };
  eventId: string;
  nextAttemptAt: string;
  deadAt?: string;
  example: {
    status: WebhookDeliveryStatus;
    attempts: number;
    lastResponseStatus: number;
    lastError: string | null;
    deliveredAt: string | null;
    deadAt: string | null;
  };
}

/** A delivery; `subscriptionKey` is what the service calls the subscription's id. */
export function webhookDeliveryResponse<K extends string>(
  subscriptionKey: K,
  d: WebhookDeliveryDocs,
): Type<WebhookDeliveryView<K>> {
  class DeliveryIds {
    @ApiProperty({
      format: 'uuid',
      description: 'Also the X-Service-Delivery header and `deliveryId` in the body',
      example: WEBHOOK_EXAMPLE_ID,
    })
    id: string;
  }
  // The service's own name, right after the id (a decorator applied by hand: `type` is said, there
  // being no declared property to read it from).
  ApiProperty({ type: String, format: 'uuid', example: WEBHOOK_EXAMPLE_ID })(
    DeliveryIds.prototype,
    subscriptionKey,
  );

  class WebhookDeliveryResponse extends DeliveryIds {
    @ApiProperty(d.event) event: string;
    @ApiProperty({ description: d.eventId, example: WEBHOOK_EXAMPLE_ID }) eventId: string;
    @ApiProperty({ enum: WEBHOOK_DELIVERY_STATUSES, example: d.example.status }) status: string;
    @ApiProperty({ description: 'Attempts made so far', example: d.example.attempts }) attempts: number;
    @ApiProperty({
      type: String,
      format: 'date-time',
      nullable: true,
      description: d.nextAttemptAt,
      example: null,
    })
    nextAttemptAt: string | null;
    @ApiProperty({
      type: Number,
      nullable: true,
      description: 'HTTP status of the last attempt',
      example: d.example.lastResponseStatus,
    })
    lastResponseStatus: number | null;
    @ApiProperty({
      type: String,
      nullable: true,
      description: 'Why the last attempt failed',
      example: d.example.lastError,
    })
    lastError: string | null;
    @ApiProperty({ format: 'date-time', example: WEBHOOK_EXAMPLE_AT }) createdAt: string;
    @ApiProperty({ type: String, format: 'date-time', nullable: true, example: d.example.deliveredAt })
    deliveredAt: string | null;
    @ApiProperty({
      type: String,
      format: 'date-time',
      nullable: true,
      ...described(d.deadAt),
      example: d.example.deadAt,
    })
    deadAt: string | null;
  }
  return WebhookDeliveryResponse as unknown as Type<WebhookDeliveryView<K>>;
}

/** A delivery with every attempt (`Attempt`: the service's attempt class). */
export function withWebhookAttemptLog<B extends Type<object>>(Base: B, Attempt: Type<WebhookAttemptView>) {
  class WithAttemptLog extends Base {
    @ApiProperty({ type: [Attempt], description: 'Every attempt, oldest first' })
    attemptLog: WebhookAttemptView[];
  }
  return WithAttemptLog;
}
