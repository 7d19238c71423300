import { Controller, Get } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { DataSource } from 'typeorm';
import { Public } from '@platform/auth';
import { list } from '@platform/envelope';
import { StatusProduct } from './status-product.entity';

@ApiTags('PublicStatus')
@Controller('PublicStatus')
export class ProductsController {
  constructor(@InjectDataSource() private readonly ds: DataSource) {}

  /** Anonymous: only what the business allowed to publish. */
  @Public()
  @Get('Products')
  @ApiOperation({ summary: 'Published products and their current state' })
  async products() {
    const [rows, total] = await this.ds.getRepository(StatusProduct).findAndCount({
      where: { published: true },
      order: { name: 'ASC' },
    });
    return list(
      rows.map((p) => ({ id: p.id, name: p.name, state: p.state })),
      total,
    );
  }
}
