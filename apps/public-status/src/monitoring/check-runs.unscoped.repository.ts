// Unscoped: the check runner claims, records and purges due checks of every business, and the health mapping lists every business's mapped resources.
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { txManager, type Tx } from '@platform/persistence';
import { asBusinessId, type BusinessId } from '../tenancy/business-id';
import type { Streak } from './check-outcome';
import { columns, type CheckResultRow, type ClaimedCheck } from './monitoring-checks.repository';

/**
 * The runner's system work across businesses on the monitoring tables: each claimed row carries its
 * business into the state change, which then goes through the tenant door (MonitoringChecksRepository,
 * the status repositories).
 */
@Injectable()
export class CheckRunsRepository {
  constructor(@InjectDataSource() private readonly ds: DataSource) {}

  /** Rows of any statement: TypeORM answers UPDATE and DELETE with `[rows, affected]`, others with rows. */
  private async q<T>(sql: string, params: unknown[], tx?: Tx): Promise<T[]> {
    const res = (await (tx ? txManager(tx) : this.ds.manager).query(sql, params)) as unknown[];
    const updateShape = res.length === 2 && Array.isArray(res[0]) && typeof res[1] === 'number';
    return (updateShape ? res[0] : res) as T[];
  }

  /**
   * Claims up to `limit` due checks for this replica. The slot is the row's `next_run_at`; the same
   * statement moves `next_run_at` to the next slot (skipping missed ones) and leases the row until the
   * run's timeout has passed, so another replica neither sees the slot as due nor waits for the lock
   * (SKIP LOCKED). A replica that dies mid-run loses only that slot.
   */
  async claimDue(limit: number, leaseMarginMs: number): Promise<ClaimedCheck[]> {
    const rows = await this.q<ClaimedCheck & { businessId: string }>(
      `WITH due AS (
         SELECT id, next_run_at AS slot FROM monitoring_checks
          WHERE enabled AND next_run_at <= now() AND (lease_until IS NULL OR lease_until < now())
          ORDER BY next_run_at LIMIT $1 FOR UPDATE SKIP LOCKED)
       UPDATE monitoring_checks c
          SET lease_token = gen_random_uuid(),
              lease_until = now() + (c.timeout_ms + $2) * interval '1 millisecond',
              next_run_at = CASE WHEN due.slot + c.interval_s * interval '1 second' > now()
                                 THEN due.slot + c.interval_s * interval '1 second'
                                 ELSE now() + c.interval_s * interval '1 second' END
         FROM due WHERE c.id = due.id
       RETURNING ${columns('c.')}, due.slot, c.lease_token AS "leaseToken"`,
      [limit, leaseMarginMs],
    );
    return rows.map((r) => ({ ...r, businessId: asBusinessId(r.businessId) }));
  }

  /**
   * Records a claimed run: the result row (one per check and slot, by unique key) and the check's new
   * streak, only while the claim is still this replica's. Returns false when it was not (a lease that
   * expired and was claimed again, or a check changed or deleted meanwhile): nothing is written then.
   */
  async record(
    claim: ClaimedCheck,
    result: Omit<CheckResultRow, 'slot'>,
    next: Streak,
    tx: Tx,
  ): Promise<boolean> {
    const updated = await this.q<{ id: string }>(
      `UPDATE monitoring_checks
          SET status = $3, streak_outcome = $4, streak = $5, last_run_at = $6,
              lease_token = NULL, lease_until = NULL
        WHERE id = $1 AND lease_token = $2 RETURNING id`,
      [claim.id, claim.leaseToken, next.status, next.streakOutcome, next.streak, result.at],
      tx,
    );
    if (!updated.length) return false;
    const inserted = await this.q<{ id: string }>(
      `INSERT INTO check_results (check_id, business_id, slot, at, outcome, status_code, error, latency_ms)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8) ON CONFLICT (check_id, slot) DO NOTHING RETURNING id`,
      [
        claim.id,
        claim.businessId,
        claim.slot,
        result.at,
        result.outcome,
        result.statusCode,
        result.error,
        result.latencyMs,
      ],
      tx,
    );
    return inserted.length > 0;
  }

  /** Deletes results older than the retention, `batch` rows at a time; returns how many went. */
  async purge(retentionDays: number, batch: number): Promise<number> {
    let total = 0;
    for (;;) {
      const rows = await this.q<{ id: string }>(
        `DELETE FROM check_results WHERE id IN (
           SELECT id FROM check_results WHERE at < now() - $1 * interval '1 day' LIMIT $2)
         RETURNING id`,
        [retentionDays, batch],
      );
      total += rows.length;
      if (rows.length < batch) return total;
    }
  }

  /** Resources naming a platform app, across businesses: the health mapping's work list. */
  async mappedResources(): Promise<{ businessId: BusinessId; resourceId: string; service: string }[]> {
    const rows = await this.q<{ businessId: string; resourceId: string; service: string }>(
      `SELECT business_id AS "businessId", id AS "resourceId", platform_service AS service
         FROM resources WHERE platform_service IS NOT NULL ORDER BY business_id, id`,
      [],
    );
    return rows.map((r) => ({ ...r, businessId: asBusinessId(r.businessId) }));
  }
}
