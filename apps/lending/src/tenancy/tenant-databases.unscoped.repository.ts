// Unscoped: the tenant registry is read before a tenant's database is known.
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';

/**
 * The tenant registry of the database-per-tenant mode (table `tenant_databases` in DATABASE_URL's
 * database, next to organizations and keys): the sealed connection URL of each organization's database.
 * Read by the app when it opens a tenant's pool, written by the admin CLI.
 */
@Injectable()
export class TenantDatabasesRepository {
  constructor(@InjectDataSource() private readonly ds: DataSource) {}

  async sealedUrl(organizationId: string): Promise<string | null> {
    const rows = (await this.ds.query(
      'SELECT url_ciphertext FROM tenant_databases WHERE organization_id = $1',
      [organizationId],
    )) as { url_ciphertext: string }[];
    return rows[0]?.url_ciphertext ?? null;
  }

  async all(): Promise<{ organizationId: string; sealed: string }[]> {
    const rows = (await this.ds.query(
      'SELECT organization_id, url_ciphertext FROM tenant_databases ORDER BY organization_id',
    )) as { organization_id: string; url_ciphertext: string }[];
    return rows.map((r) => ({ organizationId: r.organization_id, sealed: r.url_ciphertext }));
  }

  async put(organizationId: string, sealed: string): Promise<void> {
    await this.ds.query(
      `INSERT INTO tenant_databases (organization_id, url_ciphertext) VALUES ($1, $2)
       ON CONFLICT (organization_id) DO UPDATE SET url_ciphertext = EXCLUDED.url_ciphertext, updated_at = now()`,
      [organizationId, sealed],
    );
  }

  /** Copies the organization's row into its tenant database (the tenant tables reference it). */
  async copyOrganization(target: DataSource, organizationId: string): Promise<void> {
    const org = await this.organization(organizationId);
    if (!org) return;
    await target.query(
      `INSERT INTO organizations (id, name) VALUES ($1, $2) ON CONFLICT (id) DO UPDATE SET name = EXCLUDED.name`,
      [org.id, org.name],
    );
  }

  /** The organization's row as the tenant database needs it (its tables reference it). */
  async organization(organizationId: string): Promise<{ id: string; name: string } | null> {
    const rows = (await this.ds.query('SELECT id, name FROM organizations WHERE id = $1', [
      organizationId,
    ])) as { id: string; name: string }[];
    return rows[0] ?? null;
  }
}
