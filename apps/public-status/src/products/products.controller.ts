import { Controller, Get } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { Public } from '@platform/auth';
import { ApiEnvelope, list } from '@platform/envelope';
import { ProductsService } from './products.service';
import { PublicProductResponse } from './dto/product.response';

@ApiTags('PublicStatus')
@Controller('PublicStatus')
export class ProductsController {
  constructor(private readonly statusPage: ProductsService) {}

  /** Anonymous: only what the business allowed to publish. */
  @Public()
  @Get('Products')
  @ApiOperation({ summary: 'Published products and their current state' })
  @ApiEnvelope(PublicProductResponse, { list: true })
  async products() {
    const { items, total } = await this.statusPage.published();
    return list(items, total);
  }
}
