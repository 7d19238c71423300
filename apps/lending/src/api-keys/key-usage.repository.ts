import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, In } from 'typeorm';
import { TenantScopedRepository, type Tx } from '@platform/persistence';
import type { OrganizationId } from '@platform/tenancy';
import { KeyUsage } from './key-usage.entity';

/** Keys' last-used times (written with the request log, see KeyRequestsRepository.record). */
@Injectable()
export class KeyUsageRepository extends TenantScopedRepository<KeyUsage, 'organizationId'> {
  constructor(@InjectDataSource() ds: DataSource) {
    super(ds, KeyUsage, 'organizationId');
  }

  /** Last use per key id, for the keys that have been used. */
  async lastUsed(organizationId: OrganizationId, keyIds: string[], tx: Tx): Promise<Map<string, Date>> {
    if (!keyIds.length) return new Map();
    const rows = await this.find(organizationId, { keyId: In(keyIds) }, undefined, tx);
    return new Map(rows.map((r) => [r.keyId, r.lastUsedAt]));
  }
}
