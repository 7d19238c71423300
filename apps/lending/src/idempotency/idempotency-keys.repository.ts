import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, QueryFailedError } from 'typeorm';
import { TenantScopedRepository, txManager, type Tx } from '@platform/persistence';
import type { OrganizationId } from '@platform/tenancy';
import { IdempotencyKey } from './idempotency-key.entity';

/** PostgreSQL's lock_not_available: `lock_timeout` ran out while waiting. */
const LOCK_NOT_AVAILABLE = '55P03';

/** Idempotency keys of money operations, always inside a TenantData transaction. */
@Injectable()
export class IdempotencyKeysRepository extends TenantScopedRepository<IdempotencyKey, 'organizationId'> {
  constructor(@InjectDataSource() ds: DataSource) {
    super(ds, IdempotencyKey, 'organizationId');
  }

  /**
   * Holds the organization's key until the transaction ends, waiting at most `waitMs` for a request
   * that holds it already: false when that one is still running after the wait. A transaction-level
   * advisory lock, so a request that crashes frees its key with its connection, and the waiter then
   * finds the key free and no stored answer (the crashed one committed nothing). `lock_timeout` is
   * raised for this one statement only and put back right after. Two different keys that hash alike
   * only make one wait for the other.
   */
  async hold(organizationId: OrganizationId, key: string, waitMs: number, tx: Tx): Promise<boolean> {
    const m = txManager(tx);
    // The common case, a key nobody holds, in one round trip; only a held key waits (below).
    const [free] = (await m.query(
      `SELECT pg_try_advisory_xact_lock(hashtextextended('lending-idempotency:' || $1 || ':' || $2, 0)) AS held`,
      [organizationId, key],
    )) as { held: boolean }[];
    if (free.held) return true;
    await m.query(`SELECT set_config('lock_timeout', $1, true)`, [`${Math.max(1, Math.round(waitMs))}ms`]);
    try {
      await m.query(
        `SELECT pg_advisory_xact_lock(hashtextextended('lending-idempotency:' || $1 || ':' || $2, 0))`,
        [organizationId, key],
      );
    } catch (err) {
      const code = err instanceof QueryFailedError ? (err.driverError as { code?: string }).code : undefined;
      if (code === LOCK_NOT_AVAILABLE) return false;
      throw err;
    }
    await m.query('SET LOCAL lock_timeout TO DEFAULT');
    return true;
  }

  /** The key's stored entry while it lives; an expired one is deleted so the key starts afresh. */
  async live(organizationId: OrganizationId, key: string, now: Date, tx: Tx): Promise<IdempotencyKey | null> {
    const row = await this.findOne(organizationId, { key }, tx);
    if (row && row.expiresAt <= now) {
      await this.delete(organizationId, { key }, tx);
      return null;
    }
    return row;
  }

  async remember(organizationId: OrganizationId, row: Omit<IdempotencyKey, 'organizationId'>, tx: Tx) {
    await this.insert(organizationId, [row], tx);
  }

  /**
   * Deletes up to `limit` of the organization's expired keys; returns how many. Keys another replica's
   * purge holds are skipped rather than waited for, so replicas purging together never block.
   */
  async purgeBatch(organizationId: OrganizationId, now: Date, limit: number, tx: Tx): Promise<number> {
    const [, deleted] = (await txManager(tx).query(
      `DELETE FROM idempotency_keys WHERE organization_id = $1 AND key IN (
         SELECT key FROM idempotency_keys WHERE organization_id = $1 AND expires_at <= $2
          ORDER BY expires_at LIMIT $3 FOR UPDATE SKIP LOCKED)`,
      [organizationId, now, limit],
    )) as [unknown, number];
    return deleted;
  }
}
