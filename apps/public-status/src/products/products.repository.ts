import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { StatusProduct } from './status-product.entity';

/**
 * The products shown on the status page. Not tenant-scoped: the page is the platform operator's own,
 * and what it shows is public by definition once published.
 */
@Injectable()
export class ProductsRepository {
  constructor(@InjectDataSource() private readonly ds: DataSource) {}

  published(): Promise<[StatusProduct[], number]> {
    return this.ds
      .getRepository(StatusProduct)
      .findAndCount({ where: { published: true }, order: { name: 'ASC' } });
  }

  async upsert(products: Pick<StatusProduct, 'id' | 'name' | 'published'>[]): Promise<void> {
    await this.ds.getRepository(StatusProduct).upsert(products, ['id']);
  }

  findOne(id: string): Promise<StatusProduct | null> {
    return this.ds.getRepository(StatusProduct).findOneBy({ id });
  }

  async setPublished(id: string, published: boolean): Promise<boolean> {
    const res = await this.ds.getRepository(StatusProduct).update({ id }, { published });
    return (res.affected ?? 0) > 0;
  }
}
