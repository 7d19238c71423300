import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import { ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { ApiReasons } from '@platform/api-docs';
import { CurrentPrincipal } from '@platform/auth';
import { ApiEnvelope, ShowsSecret, list } from '@platform/envelope';
import { VerificationAccess, type OrganizationPrincipal } from '../tenancy/scopes';
import {
  CreateWebhookEndpointRequest,
  ListWebhookDeliveriesRequest,
  RotateWebhookSecretRequest,
  UpdateWebhookEndpointRequest,
} from './dto/webhook-endpoint.request';
import {
  WebhookDeletedResponse,
  WebhookDeliveryDetailResponse,
  WebhookDeliveryResponse,
  WebhookEndpointResponse,
  WebhookEndpointWithSecretResponse,
  WebhookRedriveResponse,
  WebhookTestResponse,
} from './dto/webhook-endpoint.response';
import { WebhookEndpointsService } from './webhook-endpoints.service';
import { URL_REFUSALS, WebhooksError } from './webhooks.errors';
import { ApiVerificationCredentials } from '../access/access-headers';

const ENDPOINT_ID = { name: 'id', format: 'uuid', description: 'Identifier of the webhook endpoint' };
const DELIVERY_ID = { name: 'deliveryId', format: 'uuid', description: 'Identifier of the delivery' };

/** Webhook endpoints of the organization: organization settings (`settings:manage`). */
@ApiTags('Webhook endpoints')
@ApiVerificationCredentials()
@Controller('api/v1/webhook-endpoints')
export class WebhookEndpointsController {
  constructor(private readonly endpoints: WebhookEndpointsService) {}

  @Post()
  @ShowsSecret()
  @VerificationAccess.Authenticated('api-key')
  @VerificationAccess.RequireScopes('settings:manage')
  @ApiOperation({
    operationId: 'createWebhookEndpoint',
    summary: 'Add a webhook endpoint; its signing secret is shown in this answer only',
  })
  @ApiReasons(...URL_REFUSALS, WebhooksError.ENDPOINT_LIMIT_REACHED, WebhooksError.NOT_CONFIGURED)
  @ApiEnvelope(WebhookEndpointWithSecretResponse, { status: 201 })
  create(@CurrentPrincipal() p: OrganizationPrincipal, @Body() body: CreateWebhookEndpointRequest) {
    return this.endpoints.create(p.ownerId, body);
  }

  @Get()
  @VerificationAccess.Authenticated('api-key')
  @VerificationAccess.RequireScopes('settings:manage')
  @ApiOperation({
    operationId: 'listWebhookEndpoints',
    summary: "The organization's webhook endpoints, oldest first (never their secrets)",
  })
  @ApiReasons(WebhooksError.NOT_CONFIGURED)
  @ApiEnvelope(WebhookEndpointResponse, { list: true })
  async list(@CurrentPrincipal() p: OrganizationPrincipal) {
    const { items, total } = await this.endpoints.list(p.ownerId);
    return list(items, total);
  }

  @Get(':id')
  @VerificationAccess.Authenticated('api-key')
  @VerificationAccess.RequireScopes('settings:manage')
  @ApiOperation({ operationId: 'getWebhookEndpoint', summary: 'One webhook endpoint (never its secret)' })
  @ApiParam(ENDPOINT_ID)
  @ApiReasons(WebhooksError.ENDPOINT_NOT_FOUND, WebhooksError.NOT_CONFIGURED)
  @ApiEnvelope(WebhookEndpointResponse)
  get(@CurrentPrincipal() p: OrganizationPrincipal, @Param('id') id: string) {
    return this.endpoints.get(p.ownerId, id);
  }

  @Patch(':id')
  @VerificationAccess.Authenticated('api-key')
  @VerificationAccess.RequireScopes('settings:manage')
  @ApiOperation({
    operationId: 'updateWebhookEndpoint',
    summary: 'Change the URL (checked again), the events, the description, or pause/resume it',
  })
  @ApiParam(ENDPOINT_ID)
  @ApiReasons(WebhooksError.ENDPOINT_NOT_FOUND, ...URL_REFUSALS, WebhooksError.NOT_CONFIGURED)
  @ApiEnvelope(WebhookEndpointResponse)
  update(
    @CurrentPrincipal() p: OrganizationPrincipal,
    @Param('id') id: string,
    @Body() body: UpdateWebhookEndpointRequest,
  ) {
    return this.endpoints.update(p.ownerId, id, body);
  }

  @Delete(':id')
  @VerificationAccess.Authenticated('api-key')
  @VerificationAccess.RequireScopes('settings:manage')
  @ApiOperation({
    operationId: 'deleteWebhookEndpoint',
    summary: 'Remove a webhook endpoint with its deliveries and their log',
  })
  @ApiParam(ENDPOINT_ID)
  @ApiReasons(WebhooksError.ENDPOINT_NOT_FOUND, WebhooksError.NOT_CONFIGURED)
  @ApiEnvelope(WebhookDeletedResponse)
  delete(@CurrentPrincipal() p: OrganizationPrincipal, @Param('id') id: string) {
    return this.endpoints.delete(p.ownerId, id);
  }

  @Post(':id/rotate-secret')
  @ShowsSecret()
  @HttpCode(200)
  @VerificationAccess.Authenticated('api-key')
  @VerificationAccess.RequireScopes('settings:manage')
  @ApiOperation({
    operationId: 'rotateWebhookSecret',
    summary: 'A new signing secret, shown once; the previous one keeps signing during the overlap',
  })
  @ApiParam(ENDPOINT_ID)
  @ApiReasons(WebhooksError.ENDPOINT_NOT_FOUND, WebhooksError.NOT_CONFIGURED)
  @ApiEnvelope(WebhookEndpointWithSecretResponse)
  rotateSecret(
    @CurrentPrincipal() p: OrganizationPrincipal,
    @Param('id') id: string,
    @Body() body: RotateWebhookSecretRequest,
  ) {
    return this.endpoints.rotateSecret(p.ownerId, id, body);
  }

  @Post(':id/test')
  @HttpCode(202)
  @VerificationAccess.Authenticated('api-key')
  @VerificationAccess.RequireScopes('settings:manage')
  @ApiOperation({
    operationId: 'testWebhookEndpoint',
    summary: 'Send a signed test delivery (event ping) to this endpoint',
  })
  @ApiParam(ENDPOINT_ID)
  @ApiReasons(WebhooksError.ENDPOINT_NOT_FOUND, WebhooksError.NOT_CONFIGURED)
  @ApiEnvelope(WebhookTestResponse, { status: 202 })
  test(@CurrentPrincipal() p: OrganizationPrincipal, @Param('id') id: string) {
    return this.endpoints.test(p.ownerId, id);
  }

  @Get(':id/deliveries')
  @VerificationAccess.Authenticated('api-key')
  @VerificationAccess.RequireScopes('settings:manage')
  @ApiOperation({
    operationId: 'listWebhookDeliveries',
    summary: "The endpoint's delivery log, newest first",
  })
  @ApiParam(ENDPOINT_ID)
  @ApiReasons(WebhooksError.ENDPOINT_NOT_FOUND, WebhooksError.NOT_CONFIGURED)
  @ApiEnvelope(WebhookDeliveryResponse, { list: true })
  async deliveries(
    @CurrentPrincipal() p: OrganizationPrincipal,
    @Param('id') id: string,
    @Query() q: ListWebhookDeliveriesRequest,
  ) {
    const { items, total } = await this.endpoints.deliveries(p.ownerId, id, q);
    return list(items, total);
  }

  @Post(':id/deliveries/redrive')
  @HttpCode(200)
  @VerificationAccess.Authenticated('api-key')
  @VerificationAccess.RequireScopes('settings:manage')
  @ApiOperation({
    operationId: 'redriveDeadWebhookDeliveries',
    summary: 'Send every dead delivery of the endpoint again, with a fresh attempt budget',
  })
  @ApiParam(ENDPOINT_ID)
  @ApiReasons(WebhooksError.ENDPOINT_NOT_FOUND, WebhooksError.NOT_CONFIGURED)
  @ApiEnvelope(WebhookRedriveResponse)
  redriveDead(@CurrentPrincipal() p: OrganizationPrincipal, @Param('id') id: string) {
    return this.endpoints.redriveDead(p.ownerId, id);
  }

  @Get(':id/deliveries/:deliveryId')
  @VerificationAccess.Authenticated('api-key')
  @VerificationAccess.RequireScopes('settings:manage')
  @ApiOperation({
    operationId: 'getWebhookDelivery',
    summary: 'One delivery with every attempt: time, response status or error, next attempt',
  })
  @ApiParam(ENDPOINT_ID)
  @ApiParam(DELIVERY_ID)
  @ApiReasons(
    WebhooksError.ENDPOINT_NOT_FOUND,
    WebhooksError.DELIVERY_NOT_FOUND,
    WebhooksError.NOT_CONFIGURED,
  )
  @ApiEnvelope(WebhookDeliveryDetailResponse)
  delivery(
    @CurrentPrincipal() p: OrganizationPrincipal,
    @Param('id') id: string,
    @Param('deliveryId') deliveryId: string,
  ) {
    return this.endpoints.delivery(p.ownerId, id, deliveryId);
  }

  @Post(':id/deliveries/:deliveryId/redrive')
  @HttpCode(200)
  @VerificationAccess.Authenticated('api-key')
  @VerificationAccess.RequireScopes('settings:manage')
  @ApiOperation({
    operationId: 'redriveWebhookDelivery',
    summary: 'Send a dead delivery again (same id and body), with a fresh attempt budget',
  })
  @ApiParam(ENDPOINT_ID)
  @ApiParam(DELIVERY_ID)
  @ApiReasons(
    WebhooksError.ENDPOINT_NOT_FOUND,
    WebhooksError.DELIVERY_NOT_FOUND,
    WebhooksError.DELIVERY_NOT_DEAD,
    WebhooksError.NOT_CONFIGURED,
  )
  @ApiEnvelope(WebhookRedriveResponse)
  redrive(
    @CurrentPrincipal() p: OrganizationPrincipal,
    @Param('id') id: string,
    @Param('deliveryId') deliveryId: string,
  ) {
    return this.endpoints.redrive(p.ownerId, id, deliveryId);
  }
}
