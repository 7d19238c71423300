import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { TenantScopedTables, type Tx } from '@platform/persistence';
import { service } from '@platform/registry';
import type { ComponentState } from '../status/states';
import type { BusinessId } from '../tenancy/business-id';
import type { CheckOutcome, CheckStatus } from './check-outcome';

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
export const columns = (alias = '') => FIELDS.map(([c, f]) => `${alias}${c} AS "${f}"`).join(', ');
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
 * A business's monitoring checks and their results (tables of migration Monitoring1763810000000,
 * unqualified: the pool's search_path is the service's schema), through the tenant door: the business
 * is every statement's `$1`. The runner's claim, record and purge across businesses are
 * check-runs.unscoped.repository.ts.
 */
@Injectable()
export class MonitoringChecksRepository extends TenantScopedTables<BusinessId> {
  constructor(@InjectDataSource() ds: DataSource) {
    super(ds, { schema: service('public-status').schema, column: 'business_id' });
  }

  async create(business: BusinessId, id: string, s: CheckSettings, tx?: Tx): Promise<void> {
    const cols = SETTINGS.map(([, c]) => c);
    await this.sql(
      business,
      `INSERT INTO monitoring_checks (business_id, id, ${cols.join(', ')})
       VALUES ($1, $2, ${cols.map((_, i) => `$${i + 3}`).join(', ')})`,
      [id, ...SETTINGS.map(([k]) => s[k])],
      tx,
    );
  }

  /**
   * Replaces the settings; a changed target, method or expectation forgets the streak and status (old
   * results no longer say anything about the new check), and the next run is due at once.
   */
  async replace(business: BusinessId, id: string, s: CheckSettings, tx?: Tx): Promise<boolean> {
    const sets = SETTINGS.map(([, c], i) => `${c} = $${i + 3}`);
    const rows = await this.sql<{ id: string }>(
      business,
      `UPDATE monitoring_checks SET ${sets.join(', ')}, updated_at = now(), next_run_at = now(),
              status = 'unknown', streak_outcome = NULL, streak = 0
        WHERE business_id = $1 AND id = $2 RETURNING id`,
      [id, ...SETTINGS.map(([k]) => s[k])],
      tx,
    );
    return rows.length > 0;
  }

  async remove(business: BusinessId, id: string, tx?: Tx): Promise<CheckRow | null> {
    const [row] = await this.sql<CheckRow>(
      business,
      `DELETE FROM monitoring_checks WHERE business_id = $1 AND id = $2 RETURNING ${COLUMNS}`,
      [id],
      tx,
    );
    return row ?? null;
  }

  async get(business: BusinessId, id: string, tx?: Tx): Promise<CheckRow | null> {
    const [row] = await this.sql<CheckRow>(
      business,
      `SELECT ${COLUMNS} FROM monitoring_checks WHERE business_id = $1 AND id = $2`,
      [id],
      tx,
    );
    return row ?? null;
  }

  list(business: BusinessId): Promise<CheckRow[]> {
    return this.sql<CheckRow>(
      business,
      `SELECT ${COLUMNS} FROM monitoring_checks WHERE business_id = $1 ORDER BY created_at, id`,
      [],
    );
  }

  /** The enabled checks of a resource, as the state reconciliation reads them. */
  ofResource(business: BusinessId, resourceId: string, tx: Tx): Promise<CheckRow[]> {
    return this.sql<CheckRow>(
      business,
      `SELECT ${COLUMNS} FROM monitoring_checks WHERE business_id = $1 AND resource_id = $2 AND enabled`,
      [resourceId],
      tx,
    );
  }

  results(business: BusinessId, id: string, limit: number): Promise<CheckResultRow[]> {
    return this.sql<CheckResultRow>(
      business,
      `SELECT slot, at, outcome, status_code AS "statusCode", error, latency_ms AS "latencyMs"
         FROM check_results WHERE business_id = $1 AND check_id = $2 ORDER BY at DESC, id DESC LIMIT $3`,
      [id, limit],
    );
  }
}
