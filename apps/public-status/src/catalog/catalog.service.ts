import { Injectable } from '@nestjs/common';
import { Transactions, type Tx } from '@platform/persistence';
import { PublicStatusError, publicStatusError } from '../status/public-status.errors';
import { StateHistoryRepository } from '../status/state-history.repository';
import { StateService } from '../status/state.service';
import type { ComponentState } from '../status/states';
import type { BusinessId } from '../tenancy/business-id';
import { BusinessesRepository } from './businesses.unscoped.repository';
import type { PutCatalogItemRequest, UpdateBusinessRequest } from './dto/catalog.request';
import type {
  BusinessResponse,
  HistoryEntryResponse,
  ManagedProductResponse,
  ManagedResourceResponse,
} from './dto/catalog.response';
import { ProductsRepository } from './products.repository';
import { ResourcesRepository } from './resources.repository';
import type { StatusProduct } from './status-product.entity';
import type { StatusResource } from './status-resource.entity';

const resourceView = (r: StatusResource): ManagedResourceResponse => ({
  slug: r.slug,
  name: r.name,
  published: r.published,
  sortOrder: r.sortOrder,
  state: r.state,
  stateSource: r.stateSource,
  stateSince: r.stateSince.toISOString(),
  platformService: r.platformService,
  automaticIncidents: r.automaticIncidents,
});

/** The business's catalog as its staff manage it: publication flags, names, order, manual states. */
@Injectable()
export class CatalogService {
  constructor(
    private readonly transactions: Transactions,
    private readonly businesses: BusinessesRepository,
    private readonly products: ProductsRepository,
    private readonly resources: ResourcesRepository,
    private readonly stateHistory: StateHistoryRepository,
    private readonly states: StateService,
  ) {}

  async business(id: BusinessId): Promise<BusinessResponse> {
    const b = await this.businesses.get(id);
    if (!b) throw publicStatusError(PublicStatusError.BUSINESS_NOT_FOUND, { business: id });
    return { id: b.id, slug: b.slug, name: b.name, published: b.published };
  }

  async updateBusiness(id: BusinessId, dto: UpdateBusinessRequest): Promise<BusinessResponse> {
    await this.transactions.run(async (tx) => {
      if (dto.slug !== undefined && (await this.businesses.slugTaken(dto.slug, id, tx)))
        throw publicStatusError(PublicStatusError.SLUG_TAKEN, { slug: dto.slug });
      await this.businesses.update(
        id,
        {
          ...(dto.name !== undefined && { name: dto.name }),
          ...(dto.slug !== undefined && { slug: dto.slug }),
          ...(dto.published !== undefined && { published: dto.published }),
        },
        tx,
      );
    });
    return this.business(id);
  }

  async catalog(business: BusinessId): Promise<ManagedProductResponse[]> {
    const [products, resources] = await Promise.all([
      this.products.list(business),
      this.resources.list(business),
    ]);
    return products.map((p) => ({
      slug: p.slug,
      name: p.name,
      published: p.published,
      sortOrder: p.sortOrder,
      resources: resources.filter((r) => r.productId === p.id).map(resourceView),
    }));
  }

  async putProduct(
    business: BusinessId,
    slug: string,
    dto: PutCatalogItemRequest,
  ): Promise<ManagedProductResponse> {
    await this.transactions.run(async (tx) => {
      const existing = await this.products.bySlug(business, slug, tx);
      if (existing) await this.products.change(business, existing.id, changes(dto), tx);
      else
        await this.products.create(
          business,
          { slug, name: dto.name, published: dto.published ?? false, sortOrder: dto.sortOrder ?? 0 },
          tx,
        );
    });
    const saved = (await this.catalog(business)).find((p) => p.slug === slug);
    if (!saved) throw publicStatusError(PublicStatusError.PRODUCT_NOT_FOUND, { product: slug });
    return saved;
  }

  async putResource(
    business: BusinessId,
    productSlug: string,
    slug: string,
    dto: PutCatalogItemRequest,
  ): Promise<ManagedResourceResponse> {
    const id = await this.transactions.run(async (tx) => {
      const product = await this.product(business, productSlug, tx);
      const existing = await this.resources.bySlug(business, product.id, slug, tx);
      if (existing) {
        await this.resources.change(
          business,
          existing.id,
          {
            ...changes(dto),
            ...(dto.platformService !== undefined && { platformService: dto.platformService }),
            ...(dto.automaticIncidents !== undefined && { automaticIncidents: dto.automaticIncidents }),
          },
          tx,
        );
        return existing.id;
      }
      const now = new Date();
      const created = await this.resources.create(
        business,
        {
          productId: product.id,
          slug,
          name: dto.name,
          published: dto.published ?? false,
          sortOrder: dto.sortOrder ?? 0,
          stateSince: now,
          platformService: dto.platformService ?? null,
          automaticIncidents: dto.automaticIncidents ?? false,
        },
        tx,
      );
      await this.states.start(tx, business, created, now);
      return created;
    });
    const [r] = await this.resources.byIds(business, [id]);
    return resourceView(r);
  }

  async setState(
    business: BusinessId,
    productSlug: string,
    resourceSlug: string,
    state: ComponentState,
    note?: string,
  ): Promise<ManagedResourceResponse> {
    const id = await this.transactions.run(async (tx) => {
      const r = await this.resource(business, productSlug, resourceSlug, tx);
      await this.states.change(tx, business, r.id, { state, source: 'manual', note });
      return r.id;
    });
    const [r] = await this.resources.byIds(business, [id]);
    return resourceView(r);
  }

  async history(
    business: BusinessId,
    productSlug: string,
    resourceSlug: string,
    limit: number,
  ): Promise<HistoryEntryResponse[]> {
    const r = await this.resource(business, productSlug, resourceSlug);
    return (await this.stateHistory.latest(business, r.id, limit)).map((h) => ({
      state: h.state,
      source: h.source,
      note: h.note,
      startedAt: h.startedAt.toISOString(),
      endedAt: h.endedAt?.toISOString() ?? null,
    }));
  }

  async product(business: BusinessId, slug: string, tx?: Tx): Promise<StatusProduct> {
    const p = await this.products.bySlug(business, slug, tx);
    if (!p) throw publicStatusError(PublicStatusError.PRODUCT_NOT_FOUND, { product: slug });
    return p;
  }

  async resource(business: BusinessId, productSlug: string, slug: string, tx?: Tx): Promise<StatusResource> {
    const p = await this.product(business, productSlug, tx);
    const r = await this.resources.bySlug(business, p.id, slug, tx);
    if (!r)
      throw publicStatusError(PublicStatusError.RESOURCE_NOT_FOUND, { resource: `${productSlug}/${slug}` });
    return r;
  }

  /** Resources named `product/resource`; every one must exist in the business. */
  async resolveComponents(business: BusinessId, refs: readonly string[], tx?: Tx): Promise<StatusResource[]> {
    const out: StatusResource[] = [];
    for (const ref of new Set(refs)) {
      const [p, r] = ref.split('/');
      out.push(await this.resource(business, p, r, tx));
    }
    return out;
  }
}

function changes(dto: PutCatalogItemRequest) {
  return {
    name: dto.name,
    ...(dto.published !== undefined && { published: dto.published }),
    ...(dto.sortOrder !== undefined && { sortOrder: dto.sortOrder }),
  };
}
