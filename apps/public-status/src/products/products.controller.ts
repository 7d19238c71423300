import { Controller, Get, Header } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { Public } from '@platform/auth';
import { ApiEnvelope, list } from '@platform/envelope';
import { ProductsService } from './products.service';
import { PublicProductResponse } from './dto/product.response';

@ApiTags('PublicStatus')
@Controller('PublicStatus')
export class ProductsController {
  constructor(private readonly statusPage: ProductsService) {}

  /**
   * Anonymous: only what the business allowed to publish. Shared caches (the gateway's micro-cache,
   * browsers, CDNs) may keep it 5 s: during an incident thousands reload it, and a state 5 s old is
   * still the news.
   */
  @Public()
  @Get('Products')
  @Header('Cache-Control', 'public, max-age=5')
  @ApiOperation({ summary: 'Published products and their current state' })
  @ApiEnvelope(PublicProductResponse, { list: true })
  async products() {
    const { items, total } = await this.statusPage.published();
    return list(items, total);
  }
}
