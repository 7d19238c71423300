import { Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { OwnersRepository, asOrganizationId } from '@platform/tenancy';
import { LendingConfig } from '../../config/lending.config';
import { todayUtc } from '../loan-dates';
import { AccrualRuns } from './accrual-runs.service';

/**
 * The daily accruals (docs/lending/loans.md, "Accruals"): every LENDING_ACCRUALS_INTERVAL_MS each
 * replica brings every organization's active loans up to today (the first run at a random point of the
 * first interval, so replicas started together do not start together). Running often is cheap: a day is
 * posted once, and a loan already up to date is not even listed. A missed day (an outage) is caught up
 * by the next run, day by day; an organization whose run fails is tried again the next time.
 */
@Injectable()
export class AccrualsJob implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('AccrualsJob');
  private timer?: NodeJS.Timeout;
  private running?: Promise<void>;
  private stopping = false;

  constructor(
    private readonly cfg: LendingConfig,
    private readonly owners: OwnersRepository,
    private readonly runs: AccrualRuns,
  ) {}

  onApplicationBootstrap(): void {
    const every = this.cfg.LENDING_ACCRUALS_INTERVAL_MS;
    if (every > 0) this.schedule(Math.floor(Math.random() * every));
  }

  async onApplicationShutdown(): Promise<void> {
    this.stopping = true;
    clearTimeout(this.timer);
    await this.running?.catch(() => undefined);
  }

  private schedule(inMs: number): void {
    this.timer = setTimeout(() => {
      void this.run()
        .catch((err: Error) => this.logger.warn(`accruals failed: ${err.message}`))
        .finally(() => !this.stopping && this.schedule(this.cfg.LENDING_ACCRUALS_INTERVAL_MS));
    }, inMs);
    this.timer.unref();
  }

  /** Every organization's loans up to `asOf` (default today); one run at a time per replica. */
  run(asOf = todayUtc()): Promise<void> {
    this.running ??= this.runAll(asOf).finally(() => (this.running = undefined));
    return this.running;
  }

  private async runAll(asOf: string): Promise<void> {
    for (const id of await this.owners.ids()) {
      if (this.stopping) return;
      try {
        const r = await this.runs.organization(asOrganizationId(id), asOf, () => this.stopping);
        if (r.loans || r.failed)
          this.logger.log(
            `${id}: ${r.loans} loans to ${asOf}: ${r.transactions} postings, ${r.skipped} skipped, ${r.failed} failed`,
          );
      } catch (err) {
        // The next organization, and the next run, may fare better (e.g. its database is unreachable).
        this.logger.warn(`${id}: ${(err as Error).message}`);
      }
    }
  }
}
