// Unscoped: the platform's own service health, no business's data.
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, type EntityManager } from 'typeorm';
import type { TransactionRunnerOf } from '@platform/consumer';
import { inTransaction } from '@platform/persistence';
import type {
  HealthReport,
  HealthState,
  HealthTransition,
  HealthWindow,
  InstanceHealth,
  ServiceHealthRow,
} from './health-state';

/** `$n` milliseconds as an interval, computed by PostgreSQL so clocks are the database's. */
const ms = (param: string) => `(${param}::double precision * interval '1 millisecond')`;

interface TransitionRow {
  service: string;
  state: HealthState;
  reason: 'reported' | 'silent';
  failing_checks: string[];
  at: Date;
}

const iso = (v: Date | string) => new Date(v).toISOString();

/**
 * Tables of migration HealthEvents1763780000000 (unqualified: the pool's search_path is the service's
 * schema). Every state change locks the service's `health_services` row, so a report being applied and
 * the silence check of any replica never both flip the same service.
 */
/** The consumer's transaction, as the handler passes it back to this repository. */
export type HealthTx = EntityManager;

@Injectable()
export class HealthEventsRepository {
  constructor(@InjectDataSource() private readonly ds: DataSource) {}

  /** The consumer module's transaction runner: the inbox row and `applyReport` commit together. */
  readonly transaction: TransactionRunnerOf<HealthTx> = (work) => inTransaction(this.ds, work);

  /**
   * Applies one report in the consumer's transaction (next to its inbox row): the instance's last
   * report (an older one arriving late does not overwrite a newer), then the service's state from
   * every instance's latest report. Returns the transition written, if the state changed.
   */
  async applyReport(tx: HealthTx, r: HealthReport, w: HealthWindow): Promise<HealthTransition | null> {
    const created = (await tx.query(
      `INSERT INTO health_services (service, state, since, reason, last_report_at)
       VALUES ($1, 'down', now(), 'reported', now()) ON CONFLICT (service) DO NOTHING RETURNING service`,
      [r.service],
    )) as unknown[];
    const [current] = (await tx.query(
      `SELECT state, since FROM health_services WHERE service = $1 FOR UPDATE`,
      [r.service],
    )) as { state: HealthState; since: Date }[];
    await tx.query(
      `INSERT INTO health_instances AS i
         (service, instance, ready, failing_checks, checks, reported_at, received_at)
       VALUES ($1, $2, $3, $4, $5, $6, now())
       ON CONFLICT (service, instance) DO UPDATE SET
         ready = EXCLUDED.ready, failing_checks = EXCLUDED.failing_checks, checks = EXCLUDED.checks,
         reported_at = EXCLUDED.reported_at, received_at = EXCLUDED.received_at
       WHERE i.reported_at <= EXCLUDED.reported_at`,
      [r.service, r.instance, r.ready, r.failingChecks, JSON.stringify(r.checks), r.reportedAt],
    );
    const [agg] = (await tx.query(
      `SELECT max(received_at) FILTER (WHERE ready) AS last_ready,
              coalesce(max(received_at) FILTER (WHERE ready) >= now() - ${ms('$2')}, false) AS up
         FROM health_instances WHERE service = $1`,
      [r.service, w.silenceMs],
    )) as { last_ready: Date | null; up: boolean }[];
    const state: HealthState = agg.up ? 'up' : 'down';
    if (created.length === 0 && state === current.state) {
      await tx.query(
        `UPDATE health_services SET last_report_at = now(), last_ready_at = $2 WHERE service = $1`,
        [r.service, agg.last_ready],
      );
      return null;
    }
    // A change is dated by the report that showed it (never in the future, never before the last one).
    const failing = state === 'down' ? r.failingChecks : [];
    const [row] = (await tx.query(
      `WITH s AS (
         UPDATE health_services
            SET state = $2, reason = 'reported', last_report_at = now(), last_ready_at = $3,
                since = CASE WHEN $5 THEN least($4::timestamptz, now())
                             ELSE greatest(least($4::timestamptz, now()), since) END
          WHERE service = $1
          RETURNING service, state, since)
       INSERT INTO health_transitions (service, state, reason, failing_checks, at)
       SELECT service, state, 'reported', $6, since FROM s
       RETURNING service, state, reason, failing_checks, at`,
      [r.service, state, agg.last_ready, r.reportedAt, created.length > 0, failing],
    )) as TransitionRow[];
    return toTransition(row);
  }

  /**
   * Flips every service no instance of which reported ready within the silence window to `down`, and
   * records the transition, in one statement. Safe on any number of replicas at once: a second
   * statement waits for the first one's row locks and then finds `state = 'up'` no longer true.
   * The down state is dated one heartbeat after the last ready report: the first one that did not come.
   */
  async markSilent(w: HealthWindow): Promise<string[]> {
    const rows = (await this.ds.query(
      `WITH silent AS (
         UPDATE health_services
            SET state = 'down', reason = 'silent',
                since = greatest(since, coalesce(last_ready_at, last_report_at) + ${ms('$2')})
          WHERE state = 'up' AND (last_ready_at IS NULL OR last_ready_at < now() - ${ms('$1')})
          RETURNING service, since)
       INSERT INTO health_transitions (service, state, reason, at)
       SELECT service, 'down', 'silent', since FROM silent
       RETURNING service`,
      [w.silenceMs, w.heartbeatMs],
    )) as { service: string }[];
    return rows.map((r) => r.service);
  }

  /** Forgets instances not heard from for `olderThanMs` (replaced pods); they no longer count anyway. */
  async pruneInstances(olderThanMs: number): Promise<void> {
    await this.ds.query(`DELETE FROM health_instances WHERE received_at < now() - ${ms('$1')}`, [
      olderThanMs,
    ]);
  }

  /**
   * Each known service's state as of now: a service still marked up whose last ready report is older
   * than the window reads as down already (the silence check will record it within its period), with
   * the instances heard from within the window.
   */
  async services(w: HealthWindow): Promise<ServiceHealthRow[]> {
    const rows = (await this.ds.query(
      `SELECT s.service,
              CASE WHEN silent THEN 'down' ELSE s.state END AS state,
              CASE WHEN silent THEN 'silent' ELSE s.reason END AS reason,
              CASE WHEN silent
                   THEN greatest(s.since, coalesce(s.last_ready_at, s.last_report_at) + ${ms('$2')})
                   ELSE s.since END AS since,
              coalesce((
                SELECT json_agg(json_build_object(
                         'instance', i.instance, 'ready', i.ready, 'failingChecks', i.failing_checks,
                         'reportedAt', i.reported_at, 'receivedAt', i.received_at) ORDER BY i.instance)
                  FROM health_instances i
                 WHERE i.service = s.service AND i.received_at >= now() - ${ms('$1')}), '[]'::json) AS instances
         FROM health_services s,
              LATERAL (SELECT s.state = 'up'
                         AND (s.last_ready_at IS NULL OR s.last_ready_at < now() - ${ms('$1')}) AS silent) x
        ORDER BY s.service`,
      [w.silenceMs, w.heartbeatMs],
    )) as {
      service: string;
      state: HealthState;
      reason: 'reported' | 'silent';
      since: Date;
      instances: (Omit<InstanceHealth, 'reportedAt' | 'receivedAt'> & {
        reportedAt: string;
        receivedAt: string;
      })[];
    }[];
    return rows.map((r) => ({
      service: r.service,
      state: r.state,
      reason: r.reason,
      since: iso(r.since),
      instances: r.instances.map((i) => ({
        ...i,
        reportedAt: iso(i.reportedAt),
        receivedAt: iso(i.receivedAt),
      })),
    }));
  }

  /** Transitions of one service (or all) in [from, to), oldest first: the input of uptime. */
  async transitions(from: Date, to: Date, service?: string): Promise<HealthTransition[]> {
    const rows = (await this.ds.query(
      `SELECT service, state, reason, failing_checks, at FROM health_transitions
        WHERE at >= $1 AND at < $2 AND ($3::text IS NULL OR service = $3)
        ORDER BY at, id`,
      [from, to, service ?? null],
    )) as TransitionRow[];
    return rows.map(toTransition);
  }

  /** The last transition before `at`: the state a range starts in. */
  async stateAt(service: string, at: Date): Promise<HealthTransition | null> {
    const [row] = (await this.ds.query(
      `SELECT service, state, reason, failing_checks, at FROM health_transitions
        WHERE service = $1 AND at <= $2 ORDER BY at DESC, id DESC LIMIT 1`,
      [service, at],
    )) as TransitionRow[];
    return row ? toTransition(row) : null;
  }
}

function toTransition(r: TransitionRow): HealthTransition {
  return {
    service: r.service,
    state: r.state,
    reason: r.reason,
    failingChecks: r.failing_checks,
    at: iso(r.at),
  };
}
