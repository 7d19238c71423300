import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { TenantScopedRepository, txManager, type Tx } from '@platform/persistence';
import type { OrganizationId } from '@platform/tenancy';
import { CaseIdempotencyKey } from './case-idempotency-key.entity';

@Injectable()
export class CaseIdempotencyRepository extends TenantScopedRepository<CaseIdempotencyKey, 'organizationId'> {
  constructor(@InjectDataSource() ds: DataSource) {
    super(ds, CaseIdempotencyKey, 'organizationId');
  }

  /**
   * Takes the key for this transaction without waiting: false when another request holds it (in
   * flight). A transaction-scoped advisory lock, so a crashed request frees it with its connection;
   * a rare hash collision between two keys only answers 409 to a retryable request.
   */
  async tryHold(organizationId: OrganizationId, key: string, tx: Tx): Promise<boolean> {
    const rows: { held: boolean }[] = await txManager(tx).query(
      `SELECT pg_try_advisory_xact_lock(hashtextextended('case-idempotency:' || $1 || ':' || $2, 0)) AS held`,
      [organizationId, key],
    );
    return rows[0].held;
  }

  /** The live entry of the key; an expired one is deleted so the key can be used afresh. */
  async live(
    organizationId: OrganizationId,
    key: string,
    now: Date,
    tx: Tx,
  ): Promise<CaseIdempotencyKey | null> {
    const row = await this.findOne(organizationId, { key }, tx);
    if (row && row.expiresAt <= now) {
      await this.delete(organizationId, { key }, tx);
      return null;
    }
    return row;
  }

  async remember(organizationId: OrganizationId, row: Omit<CaseIdempotencyKey, 'organizationId'>, tx: Tx) {
    await this.insert(organizationId, [row], tx);
  }
}
