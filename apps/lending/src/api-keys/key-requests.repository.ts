import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { TenantScopedRepository, type Tx } from '@platform/persistence';
import type { OrganizationId } from '@platform/tenancy';
import { KeyRequestRecord } from './key-request.entity';

export type KeyRequestLine = Omit<KeyRequestRecord, 'id'>;
/** A key's last use to write with a batch (one per key: an upsert may touch a row once). */
export interface KeyUse {
  keyId: string;
  at: Date;
}

/** Partner keys' request log and last-used times, always inside a TenantData transaction. */
@Injectable()
export class KeyRequestsRepository extends TenantScopedRepository<KeyRequestRecord, 'organizationId'> {
  constructor(@InjectDataSource() ds: DataSource) {
    super(ds, KeyRequestRecord, 'organizationId');
  }

  /**
   * One organization's lines and due last-used times as one statement (one round trip, one commit):
   * the lines inserted as a set, each with the time it was answered; the last use only moves forward.
   */
  async record(
    organizationId: OrganizationId,
    lines: KeyRequestLine[],
    uses: KeyUse[],
    tx: Tx,
  ): Promise<void> {
    const rows = lines.map((l) => ({
      key_id: l.keyId,
      at: l.at.toISOString(),
      method: l.method,
      path: l.path,
      status: l.status,
      duration_ms: l.durationMs,
      request_id: l.requestId,
    }));
    await this.sql(
      organizationId,
      `WITH logged AS (
         INSERT INTO api_key_requests (organization_id, key_id, at, method, path, status, duration_ms, request_id)
         SELECT $1, key_id, at, method, path, status, duration_ms, request_id
           FROM jsonb_to_recordset($2::jsonb) AS r(key_id text, at timestamptz, method text, path text,
                status integer, duration_ms integer, request_id text))
       INSERT INTO api_key_usage (organization_id, key_id, last_used_at)
       SELECT $1, key_id, at FROM jsonb_to_recordset($3::jsonb) AS u(key_id text, at timestamptz)
       ON CONFLICT (organization_id, key_id)
       DO UPDATE SET last_used_at = greatest(api_key_usage.last_used_at, excluded.last_used_at)`,
      [JSON.stringify(rows), JSON.stringify(uses.map((u) => ({ key_id: u.keyId, at: u.at })))],
      tx,
    );
  }

  /** A key's calls, newest first (the id breaks ties, so pages never overlap), and how many there are. */
  pageOf(
    organizationId: OrganizationId,
    keyId: string,
    offset: number,
    limit: number,
    tx: Tx,
  ): Promise<[KeyRequestRecord[], number]> {
    return this.page(organizationId, { keyId }, { order: { at: 'DESC', id: 'DESC' }, offset, limit }, tx);
  }

  /**
   * Deletes up to `limit` of the organization's lines older than `before`, oldest first; returns how
   * many. Rows another replica's purge holds are skipped, not waited for.
   */
  async purgeBatch(organizationId: OrganizationId, before: Date, limit: number, tx: Tx): Promise<number> {
    const deleted = await this.sqlCount(
      organizationId,
      `DELETE FROM api_key_requests WHERE id IN (
         SELECT id FROM api_key_requests WHERE organization_id = $1 AND at < $2
          ORDER BY at LIMIT $3 FOR UPDATE SKIP LOCKED)`,
      [before, limit],
      tx,
    );
    return deleted;
  }
}
