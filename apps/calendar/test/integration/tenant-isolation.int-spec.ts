import { DataSource } from 'typeorm';
import { TenantScopedRepository } from '@platform/persistence';
import { countAsTenantRoleWithoutTenant, tablesWithoutTenantPolicy, withClient } from '@platform/testing';
import { IntegrationGrant } from '../../src/grants/integration-grant.entity';
import { asAccountId } from '../../src/tenancy/tenant-ids';
import { ensureAccount, ensureProduct, grantPermissions } from './calendar-admin';
import { startCalendar, type CalendarFixture } from './calendar-fixture';

/**
 * Statements planted through the tenant door (TenantScopedRepository.sql) that forget their account:
 * row-level security, not the statement, keeps them to the account (decision 0032).
 */
class PlantedGrants extends TenantScopedRepository<IntegrationGrant, 'accountId'> {
  constructor(ds: DataSource) {
    super(ds, IntegrationGrant, 'accountId');
  }

  /** Every grant of every account: no account condition at all. */
  async countEvery(account: ReturnType<typeof asAccountId>): Promise<{ n: number; who: string }> {
    const [row] = await this.sql<{ n: number; who: string }>(
      account,
      `SELECT count(*)::int AS n, current_user AS who FROM integration_grants WHERE $1::text IS NOT NULL`,
    );
    return row;
  }

  /** Statements that never name the account: without parameters, and with only their own. */
  forgetsAccount(account: ReturnType<typeof asAccountId>, own?: string): Promise<unknown[]> {
    return own === undefined
      ? this.sql(account, `SELECT count(*) FROM integration_grants`)
      : this.sql(account, `SELECT count(*) FROM integration_grants WHERE product_id = $2`, [own]);
  }

  /** A grant written for another account than the door's. */
  grantFor(account: ReturnType<typeof asAccountId>, other: string, product: string): Promise<unknown[]> {
    return this.sql(
      account,
      `INSERT INTO integration_grants (account_id, product_id, permission, granted_by)
       SELECT $2, $3, 'Read', 'planted' WHERE $1::text IS NOT NULL`,
      [other, product],
    );
  }
}

const A = asAccountId('acme');
const B = asAccountId('globex');

describe('calendar tenancy: forced row-level security behind the tenant door (real PostgreSQL)', () => {
  let f: CalendarFixture;
  let planted: PlantedGrants;

  beforeAll(async () => {
    f = await startCalendar('calendar_rls');
    await ensureAccount(f.app, B, 'Globex');
    await ensureProduct(f.app, 'crm', 'CRM');
    await grantPermissions(f.app, A, 'crm', ['Read', 'Push']);
    await grantPermissions(f.app, B, 'crm', ['Read']);
    planted = new PlantedGrants(f.app.get(DataSource));
  });

  afterAll(async () => {
    await f?.close();
  });

  it('puts every table with an account_id under a forced tenant policy', async () => {
    expect(await tablesWithoutTenantPolicy(f.db.url, 'calendar', 'account_id')).toEqual([]);
    expect(await tablesWithoutTenantPolicy(f.db.url, 'calendar', 'owner_id')).toEqual([]);
  });

  it('refuses a door statement that never uses its $1, the account', async () => {
    await expect(planted.forgetsAccount(A)).rejects.toThrow(
      /supplies 1 parameters, but prepared statement "" requires 0/,
    );
    await expect(planted.forgetsAccount(A, 'crm')).rejects.toThrow(
      /could not determine data type of parameter \$1/,
    );
  });

  it("shows a statement without its account only the door's account", async () => {
    expect(await planted.countEvery(A)).toEqual({ n: 2, who: 'calendar_tenant' });
    expect(await planted.countEvery(B)).toEqual({ n: 1, who: 'calendar_tenant' });
    expect((await planted.countEvery(asAccountId('nobody'))).n).toBe(0);
  });

  it("refuses to write another account's row, and shows nothing to the tenant role without a tenant", async () => {
    await expect(planted.grantFor(A, B, 'crm')).rejects.toThrow(/row-level security/);
    const rows = await withClient(f.db.url, (c) =>
      c.query(`SELECT 1 FROM calendar.integration_grants WHERE granted_by = 'planted'`),
    );
    expect(rows.rowCount).toBe(0);
    expect(await countAsTenantRoleWithoutTenant(f.db.url, 'calendar', 'integration_grants')).toBe(0);
  });
});
