import { Body, Controller, Get, HttpCode, Post, Query } from '@nestjs/common';
import { ApiOperation } from '@nestjs/swagger';
import { ApiReasons } from '@platform/api-docs';
import { CurrentPrincipal } from '@platform/auth';
import { ApiEnvelope, ShowsSecret, list } from '@platform/envelope';
import { LendingApi } from '../common/lending-api';
import { LendingAccess, type PartnerPrincipal } from '../tenancy/scopes';
import {
  CreateWebhookSubscriptionRequest,
  GetWebhookDeliveriesRequest,
  RedriveDeliveryRequest,
  RotateWebhookSecretRequest,
  SubscriptionIdQuery,
  SubscriptionIdRequest,
  UpdateWebhookSubscriptionRequest,
} from './dto/webhook.request';
import {
  WebhookDeliveryResponse,
  WebhookEventTypeResponse,
  WebhookRedriveResponse,
  WebhookSubscriptionDeletedResponse,
  WebhookSubscriptionResponse,
  WebhookSubscriptionWithSecretResponse,
} from './dto/webhook.response';
import { WebhooksService } from './webhooks.service';
import { URL_REFUSALS, WebhooksError as E } from './webhooks.errors';

/** Webhook subscriptions of the organization and their delivery log (docs/lending/webhooks.md). */
@LendingApi('Webhooks')
@Controller('Webhooks')
export class WebhooksController {
  constructor(private readonly webhooks: WebhooksService) {}

  @Get('GetEventTypes')
  @LendingAccess.Authenticated('partner-key')
  @LendingAccess.RequireScopes('webhooks:read')
  @ApiOperation({
    summary: 'The events a subscription can choose: notifications, bureau and accounting events',
  })
  @ApiEnvelope(WebhookEventTypeResponse, { list: true })
  eventTypes() {
    const items = this.webhooks.eventTypes();
    return list(items, items.length);
  }

  @Post('CreateSubscription')
  @ShowsSecret()
  @LendingAccess.Authenticated('partner-key')
  @LendingAccess.RequireScopes('webhooks:write')
  @ApiOperation({
    summary: 'Subscribe a URL to events; the signing secret is shown in this answer only',
    description:
      'The URL must be https on a public address, checked now and again before every delivery. Each delivery is signed: `X-Service-Signature` is the hex HMAC-SHA256 of `X-Service-Timestamp` + "." + the raw body, keyed with the secret.',
  })
  @ApiReasons(...URL_REFUSALS, E.SUBSCRIPTION_LIMIT_REACHED, E.NOT_CONFIGURED)
  @ApiEnvelope(WebhookSubscriptionWithSecretResponse, { status: 201 })
  create(@CurrentPrincipal() p: PartnerPrincipal, @Body() body: CreateWebhookSubscriptionRequest) {
    return this.webhooks.create(p.ownerId, body);
  }

  @Get('GetSubscriptions')
  @LendingAccess.Authenticated('partner-key')
  @LendingAccess.RequireScopes('webhooks:read')
  @ApiOperation({ summary: "The organization's subscriptions, oldest first (never their secrets)" })
  @ApiReasons(E.NOT_CONFIGURED)
  @ApiEnvelope(WebhookSubscriptionResponse, { list: true })
  async subscriptions(@CurrentPrincipal() p: PartnerPrincipal) {
    const { items, total } = await this.webhooks.list(p.ownerId);
    return list(items, total);
  }

  @Get('GetSubscription')
  @LendingAccess.Authenticated('partner-key')
  @LendingAccess.RequireScopes('webhooks:read')
  @ApiOperation({ summary: 'One subscription (never its secret)' })
  @ApiReasons(E.SUBSCRIPTION_NOT_FOUND, E.NOT_CONFIGURED)
  @ApiEnvelope(WebhookSubscriptionResponse)
  subscription(@CurrentPrincipal() p: PartnerPrincipal, @Query() q: SubscriptionIdQuery) {
    return this.webhooks.get(p.ownerId, q.SubscriptionId);
  }

  @Post('UpdateSubscription')
  @HttpCode(200)
  @LendingAccess.Authenticated('partner-key')
  @LendingAccess.RequireScopes('webhooks:write')
  @ApiOperation({
    summary: 'Change the URL (checked again), the events, the description, or pause and resume it',
  })
  @ApiReasons(E.SUBSCRIPTION_NOT_FOUND, ...URL_REFUSALS, E.NOT_CONFIGURED)
  @ApiEnvelope(WebhookSubscriptionResponse)
  update(@CurrentPrincipal() p: PartnerPrincipal, @Body() body: UpdateWebhookSubscriptionRequest) {
    return this.webhooks.update(p.ownerId, body.subscriptionId, body);
  }

  @Post('DeleteSubscription')
  @HttpCode(200)
  @LendingAccess.Authenticated('partner-key')
  @LendingAccess.RequireScopes('webhooks:write')
  @ApiOperation({ summary: 'Remove a subscription with its deliveries and their log' })
  @ApiReasons(E.SUBSCRIPTION_NOT_FOUND, E.NOT_CONFIGURED)
  @ApiEnvelope(WebhookSubscriptionDeletedResponse)
  delete(@CurrentPrincipal() p: PartnerPrincipal, @Body() body: SubscriptionIdRequest) {
    return this.webhooks.delete(p.ownerId, body.subscriptionId);
  }

  @Post('RotateSecret')
  @ShowsSecret()
  @HttpCode(200)
  @LendingAccess.Authenticated('partner-key')
  @LendingAccess.RequireScopes('webhooks:write')
  @ApiOperation({
    summary: 'A new signing secret, shown once; the previous one keeps signing during the overlap',
  })
  @ApiReasons(E.SUBSCRIPTION_NOT_FOUND, E.NOT_CONFIGURED)
  @ApiEnvelope(WebhookSubscriptionWithSecretResponse)
  rotateSecret(@CurrentPrincipal() p: PartnerPrincipal, @Body() body: RotateWebhookSecretRequest) {
    return this.webhooks.rotateSecret(p.ownerId, body.subscriptionId, body);
  }

  @Get('GetDeliveries')
  @LendingAccess.Authenticated('partner-key')
  @LendingAccess.RequireScopes('webhooks:read')
  @ApiOperation({
    summary: 'The delivery log, newest first: each delivery with every attempt',
    description:
      "Each attempt's response status (or error), the first 2 KB of the response body, and when the next attempt was scheduled. A delivery that used up its attempts is `dead`: RedriveDelivery sends it again.",
  })
  @ApiReasons(E.NOT_CONFIGURED)
  @ApiEnvelope(WebhookDeliveryResponse, { list: true })
  async deliveries(@CurrentPrincipal() p: PartnerPrincipal, @Query() q: GetWebhookDeliveriesRequest) {
    const { items, total } = await this.webhooks.deliveries(p.ownerId, q);
    return list(items, total);
  }

  @Post('RedriveDelivery')
  @HttpCode(200)
  @LendingAccess.Authenticated('partner-key')
  @LendingAccess.RequireScopes('webhooks:write')
  @ApiOperation({
    summary: 'Send a dead delivery again (same delivery id, same body), with a fresh attempt budget',
  })
  @ApiReasons(E.DELIVERY_NOT_FOUND, E.DELIVERY_NOT_DEAD, E.NOT_CONFIGURED)
  @ApiEnvelope(WebhookRedriveResponse)
  redrive(@CurrentPrincipal() p: PartnerPrincipal, @Body() body: RedriveDeliveryRequest) {
    return this.webhooks.redrive(p.ownerId, body.deliveryId);
  }
}
