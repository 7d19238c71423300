import type { INestApplication } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { TenantScopedRepository } from '@platform/persistence';
import {
  countAsTenantRoleWithoutTenant,
  createTestDatabase,
  serviceEnv,
  tablesWithoutTenantPolicy,
  withClient,
} from '@platform/testing';
import { TenancyAdminService, asOrganizationId, type OrganizationId } from '@platform/tenancy';
import { OrganizationSettings } from '../../src/access/organization-settings.entity';
import { createVerificationApp } from '../../src/bootstrap';

/**
 * Statements planted through the tenant door (TenantScopedRepository.sql) that forget their
 * organization: row-level security, not the statement, keeps them to the organization (decision 0032).
 */
class PlantedSettings extends TenantScopedRepository<OrganizationSettings, 'organizationId'> {
  constructor(ds: DataSource) {
    super(ds, OrganizationSettings, 'organizationId');
  }

  add(organizationId: OrganizationId, ipAllowlist: string[]): Promise<void> {
    return this.insert(organizationId, [{ ipAllowlist }]);
  }

  /** Every organization's settings: no organization condition at all. */
  async countEvery(organizationId: OrganizationId): Promise<{ n: number; who: string }> {
    const [row] = await this.sql<{ n: number; who: string }>(
      organizationId,
      `SELECT count(*)::int AS n, current_user AS who FROM organization_settings WHERE $1::text IS NOT NULL`,
    );
    return row;
  }

  /** Deletes every organization's settings: no organization condition at all. */
  deleteEvery(organizationId: OrganizationId): Promise<number> {
    return this.sqlCount(organizationId, `DELETE FROM organization_settings WHERE $1::text IS NOT NULL`);
  }

  /** Settings written for another organization than the door's. */
  addFor(organizationId: OrganizationId, other: string): Promise<unknown[]> {
    return this.sql(
      organizationId,
      `INSERT INTO organization_settings (organization_id) SELECT $2 WHERE $1::text IS NOT NULL`,
      [other],
    );
  }
}

const A = asOrganizationId('org-a');
const B = asOrganizationId('org-b');
const C = asOrganizationId('org-c');

describe('verification tenancy: forced row-level security behind the tenant door (real PostgreSQL)', () => {
  let app: INestApplication;
  let db: Awaited<ReturnType<typeof createTestDatabase>>;
  let planted: PlantedSettings;

  beforeAll(async () => {
    db = await createTestDatabase('verification_rls');
    app = await createVerificationApp(serviceEnv(db.url), false);
    const admin = app.get(TenancyAdminService);
    for (const org of [A, B, C]) await admin.createOwner(org, org.toUpperCase());
    planted = new PlantedSettings(app.get(DataSource));
    await planted.add(A, ['10.0.0.0/8']);
    await planted.add(B, []);
  });

  afterAll(async () => {
    await app?.close();
    await db?.drop();
  });

  it('puts every table with an organization_id under a forced tenant policy', async () => {
    expect(await tablesWithoutTenantPolicy(db.url, 'verification', 'organization_id')).toEqual([]);
    expect(await tablesWithoutTenantPolicy(db.url, 'verification', 'owner_id')).toEqual([]);
    // libs/webhooks' tables name their tenant `tenant_id`; so does the outbox, which is the relay's
    // queue across tenants, not tenant data.
    expect(await tablesWithoutTenantPolicy(db.url, 'verification', 'tenant_id')).toEqual(['outbox']);
  });

  it("shows a statement without its organization only the door's organization", async () => {
    expect(await planted.countEvery(A)).toEqual({ n: 1, who: 'verification_tenant' });
    expect((await planted.countEvery(C)).n).toBe(0);
  });

  it("refuses to write another organization's row, and deletes none of them", async () => {
    await expect(planted.addFor(A, C)).rejects.toThrow(/row-level security/);
    expect(await planted.deleteEvery(B)).toBe(1);
    const left = await withClient(db.url, async (c) => {
      const { rows } = await c.query<{ organization_id: string }>(
        `SELECT organization_id FROM verification.organization_settings ORDER BY 1`,
      );
      return rows.map((r) => r.organization_id);
    });
    expect(left).toEqual(['org-a']);
    expect(await countAsTenantRoleWithoutTenant(db.url, 'verification', 'organization_settings')).toBe(0);
  });
});
