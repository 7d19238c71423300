import { Injectable } from '@nestjs/common';
import { Transactions, inTenantTransaction, type IsolationLevel, type Tx } from '@platform/persistence';
import type { OrganizationId } from '@platform/tenancy';
import { TenantConnections } from './tenant-connections';
import { TENANT_ROLE, TENANT_SETTING } from './tenant-rls';

/**
 * The one way lending reads or writes an organization's data (decision 0025): a transaction on the
 * organization's database (TenantConnections) that first switches to TENANT_ROLE and sets the
 * organization for row-level security, both transaction-local, in one round trip. A repository query
 * inside it that forgets its `organization_id` condition still sees only this organization's rows, and
 * a write for another organization fails the policy's WITH CHECK. Repositories get its `tx`.
 */
@Injectable()
export class TenantData {
  constructor(
    private readonly connections: TenantConnections,
    private readonly shared: Transactions,
  ) {}

  async run<R>(
    organizationId: OrganizationId,
    work: (tx: Tx) => Promise<R>,
    isolation: IsolationLevel = 'READ COMMITTED',
  ): Promise<R> {
    const who = { role: TENANT_ROLE, setting: TENANT_SETTING, tenant: organizationId };
    const pending = this.connections.acquire(organizationId);
    if (!pending) return this.shared.asTenant(who, work, isolation);
    const lease = await pending;
    try {
      return await inTenantTransaction(lease.ds, who, work, isolation);
    } finally {
      lease.release();
    }
  }

  /**
   * A tenant transaction (same role, same row-level security) on the control database in either mode:
   * for the organization's rows that live with its keys rather than with its lending data (the keys'
   * request log and last-used times, docs/lending/api-keys.md). They never take, open or wait for a
   * tenant database's pool, so logging a request cannot compete with serving one.
   */
  withKeys<R>(organizationId: OrganizationId, work: (tx: Tx) => Promise<R>): Promise<R> {
    return this.shared.asTenant({ role: TENANT_ROLE, setting: TENANT_SETTING, tenant: organizationId }, work);
  }
}
