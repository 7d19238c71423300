import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { TenantScopedRepository } from '@platform/persistence';
import type { OrganizationId } from '@platform/tenancy';
import { OrganizationSettings } from './organization-settings.entity';

@Injectable()
export class OrganizationSettingsRepository extends TenantScopedRepository<
  OrganizationSettings,
  'organizationId'
> {
  constructor(@InjectDataSource() ds: DataSource) {
    super(ds, OrganizationSettings, 'organizationId');
  }

  private async findOneOrFail(organizationId: OrganizationId): Promise<OrganizationSettings> {
    const row = await this.get(organizationId);
    if (!row) throw new Error(`settings of ${organizationId} vanished after saving`);
    return row;
  }

  /** Null when the organization never saved settings (the defaults apply). */
  get(organizationId: OrganizationId): Promise<OrganizationSettings | null> {
    return this.findOne(organizationId, {});
  }

  async saveIpAllowlist(
    organizationId: OrganizationId,
    ipAllowlist: string[],
  ): Promise<OrganizationSettings> {
    await this.asTenant(organizationId, (m) =>
      m
        .getRepository(OrganizationSettings)
        .upsert({ organizationId, ipAllowlist, updatedAt: () => 'now()' }, ['organizationId']),
    );
    return this.findOneOrFail(organizationId);
  }
}
