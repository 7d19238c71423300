import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { BindParam } from '@platform/outbox';
import { TenantScopedRepository, type Tx } from '@platform/persistence';
import type { OrganizationId } from '@platform/tenancy';
import { IdempotencyKey } from './idempotency-key.entity';

/** A key's stored answer, as `hold` found it. */
export type StoredAnswer = Omit<IdempotencyKey, 'organizationId' | 'key'>;

/** A stored answer as `idempotency_hold` returns it. */
interface StoredRow {
  request_hash: string;
  route: string;
  status_code: number;
  response_body: string;
  created_at: string;
  expires_at: string;
}

/**
 * The Idempotency-Keys of the service's schema (unqualified names: the DataSource's search_path is
 * the service's schema).
 */
@Injectable()
export class IdempotencyKeysRepository extends TenantScopedRepository<IdempotencyKey, 'organizationId'> {
  constructor(@InjectDataSource() ds: DataSource) {
    super(ds, IdempotencyKey, 'organizationId');
  }

  /**
   * Holds the organization's key for this transaction, waiting up to `waitMs` (0: not at all) for a
   * request that holds it already, then reads its stored answer, in one round trip (idempotency_hold).
   * A stored answer past its expiry is deleted, so the key starts afresh.
   */
  async hold(
    organizationId: OrganizationId,
    key: string,
    waitMs: number,
    now: Date,
    tx: Tx,
  ): Promise<{ held: false } | { held: true; prior: StoredAnswer | null }> {
    const [row] = await this.sqlPrepared<{ h: { held: boolean; stored?: StoredRow | null } }>(
      organizationId,
      `SELECT idempotency_hold($1, $2, $3) AS h`,
      [key, Math.max(0, Math.round(waitMs))],
      tx,
    );
    if (!row.h.held) return { held: false };
    const s = row.h.stored;
    if (!s) return { held: true, prior: null };
    const prior: StoredAnswer = {
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
      `INSERT INTO idempotency_keys
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
    const rows = await this.sql<{ key: string }>(
      organizationId,
      `DELETE FROM idempotency_keys WHERE organization_id = $1 AND key IN (
         SELECT key FROM idempotency_keys WHERE organization_id = $1 AND expires_at <= $2
          ORDER BY expires_at LIMIT $3 FOR UPDATE SKIP LOCKED)
       RETURNING key`,
      [now, limit],
      tx,
    );
    return rows.length;
  }
}
