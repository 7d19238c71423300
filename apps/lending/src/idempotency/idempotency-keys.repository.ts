import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { BindParam } from '@platform/outbox';
import { queryPrepared, TenantScopedRepository, type Tx, txManager } from '@platform/persistence';
import type { OrganizationId } from '@platform/tenancy';
import { IdempotencyKey } from './idempotency-key.entity';

/** Idempotency keys of money operations, always inside a TenantData transaction. */
@Injectable()
export class IdempotencyKeysRepository extends TenantScopedRepository<IdempotencyKey, 'organizationId'> {
  constructor(@InjectDataSource() ds: DataSource) {
    super(ds, IdempotencyKey, 'organizationId');
  }

  /**
   * Holds the organization's key until the transaction ends, waiting at most `waitMs` for a request
   * that holds it already, then reads its stored answer, in one round trip (lending.idempotency_hold):
   * `held: false` when that request is still running after the wait. A transaction-level advisory
   * lock, so a request that crashes frees its key with its connection, and the waiter then finds the
   * key free and no stored answer (the crashed one committed nothing). Two different keys that hash
   * alike only make one wait for the other. A stored answer past its expiry is deleted, so the key
   * starts afresh.
   */
  async hold(
    organizationId: OrganizationId,
    key: string,
    waitMs: number,
    now: Date,
    tx: Tx,
  ): Promise<{ held: false } | { held: true; prior: Omit<IdempotencyKey, 'organizationId' | 'key'> | null }> {
    const [row] = (await queryPrepared(tx, `SELECT lending.idempotency_hold($1, $2, $3) AS h`, [
      organizationId,
      key,
      Math.max(1, Math.round(waitMs)),
    ])) as { h: { held: boolean; stored?: StoredKey | null } }[];
    if (!row.h.held) return { held: false };
    const s = row.h.stored;
    if (!s) return { held: true, prior: null };
    const prior = {
      requestHash: s.request_hash,
      route: s.route,
      statusCode: s.status_code,
      responseBody: s.response_body,
      createdAt: new Date(s.created_at),
      expiresAt: new Date(s.expires_at),
    };
    if (prior.expiresAt <= now) {
      await this.delete(organizationId, { key }, tx);
      return { held: true, prior: null };
    }
    return { held: true, prior };
  }

  async remember(organizationId: OrganizationId, row: Omit<IdempotencyKey, 'organizationId'>, tx: Tx) {
    await this.insert(organizationId, [row], tx);
  }

  /** The INSERT of `remember`, for a statement the operation sends anyway (IdempotentOperations). */
  rememberSql(organizationId: OrganizationId, row: Omit<IdempotencyKey, 'organizationId'>) {
    return (bind: BindParam): string =>
      `INSERT INTO lending.idempotency_keys
         (organization_id, key, request_hash, route, status_code, response_body, created_at, expires_at)
       VALUES (${bind(organizationId)}, ${bind(row.key)}, ${bind(row.requestHash)}, ${bind(row.route)},
               ${bind(row.statusCode)}::int, ${bind(row.responseBody)}, ${bind(row.createdAt)}::timestamptz,
               ${bind(row.expiresAt)}::timestamptz)`;
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

/** A stored answer as lending.idempotency_hold returns it. */
interface StoredKey {
  request_hash: string;
  route: string;
  status_code: number;
  response_body: string;
  created_at: string;
  expires_at: string;
}
