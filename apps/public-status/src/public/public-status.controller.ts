import { Controller, Get, Header, Query, Res } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiProduces, ApiTags } from '@nestjs/swagger';
import { ApiReasons } from '@platform/api-docs';
import { Public } from '@platform/auth';
import { ApiEnvelope, list, markRawResponse } from '@platform/envelope';
import type { Response } from 'express';
import { PublicStatusConfig } from '../config/public-status.config';
import { PublicStatusError } from '../status/public-status.errors';
import {
  BusinessQuery,
  ProductQuery,
  ProductsQuery,
  ProductUptimeQuery,
  StatusPageHistoryQuery,
  StatusPageQuery,
  UptimeHistoryQuery,
} from './dto/public.request';
import {
  ChainHeadsResponse,
  ProductStatusResponse,
  ProductUptimeResponse,
  PublicIncidentResponse,
  PublicProductResponse,
  StatusPageResponse,
  UptimeHistoryResponse,
} from './dto/public.response';
import { PublicFeedService } from './public-feed.service';
import { PublicStatusService } from './public-status.service';
import { toStatuspageSummary } from './statuspage.mapper';

/**
 * Shared caches (the gateway's micro-cache, browsers, CDNs) may keep current state 5 s: during an
 * incident thousands reload it, and a state 5 s old is still the news. History changes slowly: 60 s.
 * Every answer carries an ETag (Express's, from the body) and answers If-None-Match with 304.
 */
const CURRENT = 'public, max-age=5';
const SLOW = 'public, max-age=60';

@ApiTags('PublicStatus')
@Controller('PublicStatus')
export class PublicStatusController {
  constructor(
    private readonly status: PublicStatusService,
    private readonly feed: PublicFeedService,
    private readonly config: PublicStatusConfig,
  ) {}

  @Public()
  @Get('Products')
  @Header('Cache-Control', CURRENT)
  @ApiOperation({ summary: 'Published products and their current state, of one business or all' })
  @ApiReasons(PublicStatusError.BUSINESS_NOT_FOUND)
  @ApiEnvelope(PublicProductResponse, { list: true })
  async products(@Query() q: ProductsQuery) {
    const { items, total } = await this.status.products(q.business, q.offset ?? 0, q.limit ?? 100);
    return list(items, total);
  }

  @Public()
  @Get('ProductStatus')
  @Header('Cache-Control', CURRENT)
  @ApiOperation({ summary: "A product's state, its resources, open incidents and maintenance" })
  @ApiReasons(PublicStatusError.BUSINESS_NOT_FOUND, PublicStatusError.PRODUCT_NOT_FOUND)
  @ApiEnvelope(ProductStatusResponse)
  productStatus(@Query() q: ProductQuery) {
    return this.status.productStatus(q.business, q.product);
  }

  @Public()
  @Get('ProductUptime')
  @Header('Cache-Control', CURRENT)
  @ApiOperation({ summary: "A product's and its resources' uptime per day (90 days unless asked)" })
  @ApiReasons(
    PublicStatusError.BUSINESS_NOT_FOUND,
    PublicStatusError.PRODUCT_NOT_FOUND,
    PublicStatusError.INVALID_RANGE,
  )
  @ApiEnvelope(ProductUptimeResponse)
  productUptime(@Query() q: ProductUptimeQuery) {
    return this.status.productUptime(q.business, q.product, q);
  }

  @Public()
  @Get('StatusPage')
  @Header('Cache-Control', CURRENT)
  @ApiOperation({ summary: "A business's status page: products, resources, open incidents, maintenance" })
  @ApiReasons(PublicStatusError.BUSINESS_NOT_FOUND)
  @ApiEnvelope(StatusPageResponse)
  async statusPage(@Query() q: StatusPageQuery, @Res({ passthrough: true }) res: Response) {
    const page = await this.status.statusPage(q.business);
    if (q.format !== 'statuspage') return page;
    // Existing Statuspage widgets and bots read summary.json at the top level: no envelope.
    // Absolute, as Statuspage's is, on PUBLIC_STATUS_URL: the Host header is the caller's to choose,
    // and this answer is cached.
    markRawResponse(res);
    const base = this.config.PUBLIC_STATUS_URL.replace(/\/+$/, '');
    return toStatuspageSummary(
      page,
      `${base}/PublicStatus/StatusPage?business=${encodeURIComponent(page.business.slug)}`,
    );
  }

  @Public()
  @Get('StatusPageHistory')
  @Header('Cache-Control', SLOW)
  @ApiOperation({ summary: 'Resolved incidents or completed maintenance, newest first, paged' })
  @ApiReasons(PublicStatusError.BUSINESS_NOT_FOUND)
  @ApiEnvelope(PublicIncidentResponse, { list: true })
  async history(@Query() q: StatusPageHistoryQuery) {
    const { items, total } = await this.status.history(
      q.business,
      q.kind ?? 'incidents',
      q.page ?? 1,
      q.per_page ?? 20,
    );
    return list(items, total);
  }

  @Public()
  @Get('UptimeHistory')
  @Header('Cache-Control', SLOW)
  @ApiOperation({ summary: 'Daily uptime over a long range (a year by default, five at most)' })
  @ApiReasons(
    PublicStatusError.BUSINESS_NOT_FOUND,
    PublicStatusError.PRODUCT_NOT_FOUND,
    PublicStatusError.INVALID_RANGE,
  )
  @ApiEnvelope(UptimeHistoryResponse)
  uptimeHistory(@Query() q: UptimeHistoryQuery) {
    return this.status.uptimeHistory(q.business, q.product, q);
  }

  @Public()
  @Get('ChainHeads')
  @Header('Cache-Control', CURRENT)
  @ApiOperation({ summary: 'Heads of the hash chains of incident updates and daily uptime' })
  @ApiReasons(PublicStatusError.BUSINESS_NOT_FOUND)
  @ApiEnvelope(ChainHeadsResponse)
  chainHeads(@Query() q: BusinessQuery) {
    return this.status.chainHeads(q.business);
  }

  @Public()
  @Get('Rss')
  @ApiOperation({
    summary: 'RSS 2.0 feed of incident updates and maintenance steps, newest first (50 items at most)',
  })
  @ApiProduces('application/rss+xml')
  @ApiOkResponse({ description: 'An RSS 2.0 document', schema: { type: 'string' } })
  @ApiReasons(PublicStatusError.BUSINESS_NOT_FOUND)
  async rss(@Query() q: BusinessQuery, @Res() res: Response) {
    const xml = await this.feed.rss(q.business);
    // Sent by Express itself (not the envelope): its ETag over these bytes answers If-None-Match.
    res.setHeader('Cache-Control', SLOW);
    res.type('application/rss+xml; charset=utf-8').send(xml);
  }
}
