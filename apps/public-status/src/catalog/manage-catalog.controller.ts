import { Body, Controller, Get, HttpCode, Param, Post, Put, Query } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiReasons } from '@platform/api-docs';
import { CurrentPrincipal } from '@platform/auth';
import { ApiEnvelope } from '@platform/envelope';
import { ChainsService } from '../status/chains.service';
import { ChainVerificationResponse } from '../status/dto/chain-report.response';
import { PublicStatusError } from '../status/public-status.errors';
import { ManageHeaders } from '../tenancy/manage-headers';
import { PublicStatusAccess, type StatusPrincipal } from '../tenancy/scopes';
import { CatalogService } from './catalog.service';
import { HistoryQuery } from './dto/history.query';
import {
  ProductPath,
  PutCatalogItemRequest,
  ResourcePath,
  SetStateRequest,
  UpdateBusinessRequest,
} from './dto/catalog.request';
import {
  BusinessResponse,
  HistoryEntryResponse,
  ManagedProductResponse,
  ManagedResourceResponse,
} from './dto/catalog.response';

const Access = PublicStatusAccess;

@ApiTags('PublicStatus management')
@ManageHeaders()
@Controller('PublicStatus/manage')
export class ManageCatalogController {
  constructor(
    private readonly catalog: CatalogService,
    private readonly chains: ChainsService,
  ) {}

  @Get('business')
  @Access.Authenticated('status-key')
  @Access.RequireScopes('status:read')
  @ApiOperation({ operationId: 'getBusiness', summary: 'Your business: public slug, name and publication' })
  @ApiEnvelope(BusinessResponse)
  business(@CurrentPrincipal() p: StatusPrincipal) {
    return this.catalog.business(p.ownerId);
  }

  @Put('business')
  @Access.Authenticated('status-key')
  @Access.RequireScopes('status:write')
  @ApiOperation({
    operationId: 'updateBusiness',
    summary: 'Change the business name, public slug or publication',
  })
  @ApiReasons(PublicStatusError.SLUG_TAKEN)
  @ApiEnvelope(BusinessResponse)
  updateBusiness(@CurrentPrincipal() p: StatusPrincipal, @Body() body: UpdateBusinessRequest) {
    return this.catalog.updateBusiness(p.ownerId, body);
  }

  @Get('products')
  @Access.Authenticated('status-key')
  @Access.RequireScopes('status:read')
  @ApiOperation({
    operationId: 'listProducts',
    summary: 'Every product and resource, published or not, with current states',
  })
  @ApiEnvelope(ManagedProductResponse, { list: true })
  async products(@CurrentPrincipal() p: StatusPrincipal) {
    const items = await this.catalog.catalog(p.ownerId);
    return { items, total: items.length };
  }

  @Put('products/:product')
  @Access.Authenticated('status-key')
  @Access.RequireScopes('status:write')
  @ApiOperation({
    operationId: 'putProduct',
    summary: 'Create or change a product (name, publication, order)',
  })
  @ApiEnvelope(ManagedProductResponse)
  putProduct(
    @CurrentPrincipal() p: StatusPrincipal,
    @Param() path: ProductPath,
    @Body() body: PutCatalogItemRequest,
  ) {
    return this.catalog.putProduct(p.ownerId, path.product, body);
  }

  @Put('products/:product/resources/:resource')
  @Access.Authenticated('status-key')
  @Access.RequireScopes('status:write')
  @ApiOperation({
    operationId: 'putResource',
    summary: 'Create or change a resource of a product (name, publication, order)',
  })
  @ApiReasons(PublicStatusError.PRODUCT_NOT_FOUND)
  @ApiEnvelope(ManagedResourceResponse)
  putResource(
    @CurrentPrincipal() p: StatusPrincipal,
    @Param() path: ResourcePath,
    @Body() body: PutCatalogItemRequest,
  ) {
    return this.catalog.putResource(p.ownerId, path.product, path.resource, body);
  }

  @Post('products/:product/resources/:resource/state')
  @HttpCode(200)
  @Access.Authenticated('status-key')
  @Access.RequireScopes('status:write')
  @ApiOperation({
    operationId: 'setResourceState',
    summary: "Set a resource's state by hand (recorded in its history)",
  })
  @ApiReasons(PublicStatusError.PRODUCT_NOT_FOUND, PublicStatusError.RESOURCE_NOT_FOUND)
  @ApiEnvelope(ManagedResourceResponse)
  setState(
    @CurrentPrincipal() p: StatusPrincipal,
    @Param() path: ResourcePath,
    @Body() body: SetStateRequest,
  ) {
    return this.catalog.setState(p.ownerId, path.product, path.resource, body.state, body.note);
  }

  @Get('products/:product/resources/:resource/history')
  @Access.Authenticated('status-key')
  @Access.RequireScopes('status:read')
  @ApiOperation({ operationId: 'getResourceHistory', summary: "A resource's state history, newest first" })
  @ApiReasons(PublicStatusError.PRODUCT_NOT_FOUND, PublicStatusError.RESOURCE_NOT_FOUND)
  @ApiEnvelope(HistoryEntryResponse, { list: true })
  async history(
    @CurrentPrincipal() p: StatusPrincipal,
    @Param() path: ResourcePath,
    @Query() q: HistoryQuery,
  ) {
    const items = await this.catalog.history(p.ownerId, path.product, path.resource, q.limit ?? 100);
    return { items, total: items.length };
  }

  @Get('chains/verify')
  @Access.Authenticated('status-key')
  @Access.RequireScopes('status:read')
  @ApiOperation({
    operationId: 'verifyChains',
    summary: 'Recompute every hash chain of the business and report where one breaks',
  })
  @ApiEnvelope(ChainVerificationResponse)
  verifyChains(@CurrentPrincipal() p: StatusPrincipal) {
    return this.chains.verify(p.ownerId);
  }
}
