import { Injectable } from '@nestjs/common';
import type { ListValue } from '@platform/envelope';
import { ProductsRepository } from './products.repository';
import type { StatusProduct } from './status-product.entity';

export interface PublicProductView {
  id: string;
  name: string;
  state: StatusProduct['state'];
}

@Injectable()
export class ProductsService {
  constructor(private readonly products: ProductsRepository) {}

  /** Anonymous: only what the business allowed to publish. */
  async published(): Promise<ListValue<PublicProductView>> {
    const [rows, total] = await this.products.published();
    return { items: rows.map((p) => ({ id: p.id, name: p.name, state: p.state })), total };
  }

  async publish(id: string, name: string): Promise<StatusProduct | null> {
    await this.products.upsert([{ id, name, published: true }]);
    return this.products.findOne(id);
  }

  unpublish(id: string): Promise<boolean> {
    return this.products.setPublished(id, false);
  }

  async publishAll(products: { id: string; name: string }[]): Promise<string[]> {
    await this.products.upsert(products.map((p) => ({ ...p, published: true })));
    return products.map((p) => p.id);
  }
}
