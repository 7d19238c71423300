import { DataSource } from 'typeorm';
import { TenantScopedRepository } from '@platform/persistence';
import { countAsTenantRoleWithoutTenant, tablesWithoutTenantPolicy, withClient } from '@platform/testing';
import { StatusProduct } from '../../src/catalog/status-product.entity';
import { asBusinessId, type BusinessId } from '../../src/tenancy/business-id';
import { startStatus, type StatusFixture } from './status-fixture';

/**
 * Statements planted through the tenant door (TenantScopedRepository.sql) that forget their business:
 * row-level security, not the statement, keeps them to the business (decision 0032).
 */
class PlantedProducts extends TenantScopedRepository<StatusProduct, 'businessId'> {
  constructor(ds: DataSource) {
    super(ds, StatusProduct, 'businessId');
  }

  add(business: BusinessId, slug: string): Promise<void> {
    return this.insert(business, [{ slug, name: slug }]);
  }

  /** Every product of every business: no business condition at all. */
  async countEvery(business: BusinessId): Promise<{ n: number; who: string }> {
    const [row] = await this.sql<{ n: number; who: string }>(
      business,
      `SELECT count(*)::int AS n, current_user AS who FROM products WHERE $1::text IS NOT NULL`,
    );
    return row;
  }

  /** A product written for another business than the door's. */
  addFor(business: BusinessId, other: string): Promise<unknown[]> {
    return this.sql(
      business,
      `INSERT INTO products (business_id, slug, name) SELECT $2, 'planted', 'Planted' WHERE $1::text IS NOT NULL`,
      [other],
    );
  }

  /** Renames every product: no business condition at all. */
  renameEvery(business: BusinessId): Promise<number> {
    return this.sqlCount(business, `UPDATE products SET name = 'renamed' WHERE $1::text IS NOT NULL`);
  }
}

const A = asBusinessId('acme');
const B = asBusinessId('globex');

describe('public status tenancy: forced row-level security behind the tenant door (real PostgreSQL)', () => {
  let f: StatusFixture;
  let planted: PlantedProducts;

  beforeAll(async () => {
    f = await startStatus('status_rls');
    await f.business(A);
    await f.business(B);
    planted = new PlantedProducts(f.app.get(DataSource));
    await planted.add(A, 'api');
    await planted.add(A, 'web');
    await planted.add(B, 'api');
  });

  afterAll(async () => {
    await f?.close();
  });

  it('puts every table with a business_id under a forced tenant policy', async () => {
    expect(await tablesWithoutTenantPolicy(f.db.url, 'public_status', 'business_id')).toEqual([]);
    expect(await tablesWithoutTenantPolicy(f.db.url, 'public_status', 'owner_id')).toEqual([]);
    // libs/webhooks' tables name their tenant `tenant_id`; so does the outbox, which is the relay's
    // queue across tenants, not tenant data.
    expect(await tablesWithoutTenantPolicy(f.db.url, 'public_status', 'tenant_id')).toEqual(['outbox']);
  });

  it("shows a statement without its business only the door's business", async () => {
    expect(await planted.countEvery(A)).toEqual({ n: 2, who: 'public_status_tenant' });
    expect(await planted.countEvery(B)).toEqual({ n: 1, who: 'public_status_tenant' });
    expect((await planted.countEvery(asBusinessId('nobody'))).n).toBe(0);
  });

  it("refuses to write another business's row, and changes none of them", async () => {
    await expect(planted.addFor(A, B)).rejects.toThrow(/row-level security/);
    expect(await planted.renameEvery(B)).toBe(1);
    const names = await withClient(f.db.url, async (c) => {
      const { rows } = await c.query<{ business_id: string; name: string }>(
        `SELECT business_id, name FROM public_status.products ORDER BY business_id, slug`,
      );
      return rows.map((r) => `${r.business_id}:${r.name}`);
    });
    expect(names).toEqual(['acme:api', 'acme:web', 'globex:renamed']);
    expect(await countAsTenantRoleWithoutTenant(f.db.url, 'public_status', 'products')).toBe(0);
  });
});
