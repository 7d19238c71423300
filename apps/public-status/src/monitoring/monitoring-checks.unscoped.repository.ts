// Unscoped: the check runner claims, records and purges due checks of every business (management calls take the business).
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { txManager, type Tx } from '@platform/persistence';
import type { ComponentState } from '../status/states';
import { asBusinessId, type BusinessId } from '../tenancy/business-id';
import type { CheckOutcome, CheckStatus, Streak } from './check-outcome';

export interface CheckSettings {
  resourceId: string;
  name: string;
  url: string;
  method: 'GET' | 'HEAD';
  intervalS: number;
  timeoutMs: number;
  expectStatusMin: number;
  expectStatusMax: number;
  bodyContains: string | null;
  failureThreshold: number;
  recoveryThreshold: number;
  failureState: ComponentState;
  slowMs: number | null;
  enabled: boolean;
}

export interface CheckRow extends CheckSettings {
  id: string;
  businessId: BusinessId;
  status: CheckStatus;
  streakOutcome: CheckOutcome | null;
  streak: number;
  nextRunAt: Date;
  lastRunAt: Date | null;
  createdAt: Date;
}

/** A due slot one replica claimed: only the holder of `leaseToken` records its result. */
export interface ClaimedCheck extends CheckRow {
  slot: Date;
  leaseToken: string;
}

export interface CheckResultRow {
  slot: Date;
  at: Date;
  outcome: CheckOutcome;
  statusCode: number | null;
  error: string | null;
  latencyMs: number;
}

const FIELDS: [string, string][] = [
  ['id', 'id'],
  ['business_id', 'businessId'],
  ['resource_id', 'resourceId'],
  ['name', 'name'],
  ['url', 'url'],
  ['method', 'method'],
  ['interval_s', 'intervalS'],
  ['timeout_ms', 'timeoutMs'],
  ['expect_status_min', 'expectStatusMin'],
  ['expect_status_max', 'expectStatusMax'],
  ['body_contains', 'bodyContains'],
  ['failure_threshold', 'failureThreshold'],
  ['recovery_threshold', 'recoveryThreshold'],
  ['failure_state', 'failureState'],
  ['slow_ms', 'slowMs'],
  ['enabled', 'enabled'],
  ['status', 'status'],
  ['streak_outcome', 'streakOutcome'],
  ['streak', 'streak'],
  ['next_run_at', 'nextRunAt'],
  ['last_run_at', 'lastRunAt'],
  ['created_at', 'createdAt'],
];
const columns = (alias = '') => FIELDS.map(([c, f]) => `${alias}${c} AS "${f}"`).join(', ');
const COLUMNS = columns();

const SETTINGS: [keyof CheckSettings, string][] = [
  ['resourceId', 'resource_id'],
  ['name', 'name'],
  ['url', 'url'],
  ['method', 'method'],
  ['intervalS', 'interval_s'],
  ['timeoutMs', 'timeout_ms'],
  ['expectStatusMin', 'expect_status_min'],
  ['expectStatusMax', 'expect_status_max'],
  ['bodyContains', 'body_contains'],
  ['failureThreshold', 'failure_threshold'],
  ['recoveryThreshold', 'recovery_threshold'],
  ['failureState', 'failure_state'],
  ['slowMs', 'slow_ms'],
  ['enabled', 'enabled'],
];

/**
 * Tables of migration Monitoring1763810000000 (unqualified: the pool's search_path is the service's
 * schema). Management reads and writes take the business; the runner's claim, record and purge are
 * system work across businesses (each claimed row carries its business into the state change).
 */
@Injectable()
export class MonitoringChecksRepository {
  constructor(@InjectDataSource() private readonly ds: DataSource) {}

  /** Rows of any statement: TypeORM answers UPDATE and DELETE with `[rows, affected]`, others with rows. */
  private async q<T>(sql: string, params: unknown[], tx?: Tx): Promise<T[]> {
    const res = (await (tx ? txManager(tx) : this.ds.manager).query(sql, params)) as unknown[];
    const updateShape = res.length === 2 && Array.isArray(res[0]) && typeof res[1] === 'number';
    return (updateShape ? res[0] : res) as T[];
  }

  async create(business: BusinessId, id: string, s: CheckSettings, tx?: Tx): Promise<void> {
    const cols = SETTINGS.map(([, c]) => c);
    await this.q(
      `INSERT INTO monitoring_checks (id, business_id, ${cols.join(', ')})
       VALUES ($1, $2, ${cols.map((_, i) => `$${i + 3}`).join(', ')})`,
      [id, business, ...SETTINGS.map(([k]) => s[k])],
      tx,
    );
  }

  /**
   * Replaces the settings; a changed target, method or expectation forgets the streak and status (old
   * results no longer say anything about the new check), and the next run is due at once.
   */
  async replace(business: BusinessId, id: string, s: CheckSettings, tx?: Tx): Promise<boolean> {
    const sets = SETTINGS.map(([, c], i) => `${c} = $${i + 3}`);
    const rows = await this.q<{ id: string }>(
      `UPDATE monitoring_checks SET ${sets.join(', ')}, updated_at = now(), next_run_at = now(),
              status = 'unknown', streak_outcome = NULL, streak = 0
        WHERE business_id = $1 AND id = $2 RETURNING id`,
      [business, id, ...SETTINGS.map(([k]) => s[k])],
      tx,
    );
    return rows.length > 0;
  }

  async remove(business: BusinessId, id: string, tx?: Tx): Promise<CheckRow | null> {
    const [row] = await this.q<CheckRow>(
      `DELETE FROM monitoring_checks WHERE business_id = $1 AND id = $2 RETURNING ${COLUMNS}`,
      [business, id],
      tx,
    );
    return row ?? null;
  }

  async get(business: BusinessId, id: string, tx?: Tx): Promise<CheckRow | null> {
    const [row] = await this.q<CheckRow>(
      `SELECT ${COLUMNS} FROM monitoring_checks WHERE business_id = $1 AND id = $2`,
      [business, id],
      tx,
    );
    return row ?? null;
  }

  list(business: BusinessId): Promise<CheckRow[]> {
    return this.q<CheckRow>(
      `SELECT ${COLUMNS} FROM monitoring_checks WHERE business_id = $1 ORDER BY created_at, id`,
      [business],
    );
  }

  /** The enabled checks of a resource, as the state reconciliation reads them. */
  ofResource(business: BusinessId, resourceId: string, tx: Tx): Promise<CheckRow[]> {
    return this.q<CheckRow>(
      `SELECT ${COLUMNS} FROM monitoring_checks WHERE business_id = $1 AND resource_id = $2 AND enabled`,
      [business, resourceId],
      tx,
    );
  }

  results(business: BusinessId, id: string, limit: number): Promise<CheckResultRow[]> {
    return this.q<CheckResultRow>(
      `SELECT slot, at, outcome, status_code AS "statusCode", error, latency_ms AS "latencyMs"
         FROM check_results WHERE business_id = $1 AND check_id = $2 ORDER BY at DESC, id DESC LIMIT $3`,
      [business, id, limit],
    );
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
