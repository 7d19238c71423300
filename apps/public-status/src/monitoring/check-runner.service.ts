import { Injectable } from '@nestjs/common';
import { Transactions } from '@platform/persistence';
import { PeriodicJob } from '@platform/scheduling';
import { publicTargetPolicy, type PublicTargetPolicy } from '@platform/network';
import { PublicStatusConfig } from '../config/public-status.config';
import { AutomatedStateService } from './automated-state.service';
import { nextStreak, outcomeOf } from './check-outcome';
import { probe } from './check-probe';
import { CheckRunsRepository } from './check-runs.unscoped.repository';
import type { ClaimedCheck } from './monitoring-checks.repository';

/** Added to a run's timeout for its lease: the time to write its result after the probe gave up. */
const LEASE_MARGIN_MS = 10_000;
const PURGE_EVERY_MS = 60_000;
const PURGE_BATCH = 5000;

/**
 * Runs monitoring checks on every replica (PeriodicJob, cluster scope), stateless: each tick claims
 * due slots from PostgreSQL (CheckRunsRepository.claimDue), probes them concurrently, and
 * records each result with the check's new streak and any resulting state change in one transaction. Replicas share the work
 * without knowing of each other; a slot runs once (claim + unique (check, slot)).
 */
@Injectable()
export class CheckRunnerService extends PeriodicJob<void> {
  private readonly policy: PublicTargetPolicy;
  private lastPurge = 0;

  constructor(
    private readonly repository: CheckRunsRepository,
    private readonly automated: AutomatedStateService,
    private readonly transactions: Transactions,
    private readonly cfg: PublicStatusConfig,
  ) {
    super('Monitoring');
    this.policy = publicTargetPolicy(cfg.MONITORING_ALLOW_PRIVATE_TARGETS, cfg.NODE_ENV);
  }

  /** The SSRF policy checks are created and run under. */
  targetPolicy(): PublicTargetPolicy {
    return this.policy;
  }

  protected intervalMs(): number {
    return this.cfg.MONITORING_TICK_MS;
  }

  protected async work(): Promise<void> {
    await this.runDue();
    if (Date.now() - this.lastPurge >= PURGE_EVERY_MS) {
      this.lastPurge = Date.now();
      await this.purge();
    }
  }

  /** One pass: claims and runs this replica's share of the due checks; returns how many it recorded. */
  async runDue(): Promise<number> {
    const claimed = await this.repository.claimDue(this.cfg.MONITORING_BATCH, LEASE_MARGIN_MS);
    const recorded = await Promise.all(claimed.map((c) => this.run(c)));
    return recorded.filter(Boolean).length;
  }

  purge(): Promise<number> {
    return this.repository.purge(this.cfg.MONITORING_RESULT_RETENTION_DAYS, PURGE_BATCH);
  }

  private async run(c: ClaimedCheck): Promise<boolean> {
    const r = await probe({ url: c.url, method: c.method, timeoutMs: c.timeoutMs }, this.policy);
    const { outcome, error } = outcomeOf(c, r);
    const next = nextStreak(c, outcome, c);
    try {
      return await this.transactions.run(async (tx) => {
        const ok = await this.repository.record(
          c,
          { at: new Date(), outcome, statusCode: r.statusCode, error, latencyMs: r.latencyMs },
          next,
          tx,
        );
        if (ok) await this.automated.reconcile(tx, c.businessId, c.resourceId, 'check');
        return ok;
      });
    } catch (err) {
      this.logger.warn(`check ${c.id}: recording failed: ${(err as Error).message}`);
      return false;
    }
  }
}
