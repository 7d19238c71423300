import { Injectable } from '@nestjs/common';
import { PeriodicJob } from '@platform/scheduling';
import { OwnersRepository, asOrganizationId } from '@platform/tenancy';
import { LendingConfig } from '../../config/lending.config';
import { todayUtc } from '../loan-dates';
import { AccrualRuns, type AccrualRun } from './accrual-runs.service';

/** What a round did, over every organization. */
interface Round {
  asOf: string;
  loans: number;
  transactions: number;
  skipped: number;
  failed: number;
  /** Charges not posted: their loans reached the accrual ceiling (docs/lending/loan-math.md, "Numbers"). */
  capped: number;
}

/**
 * The daily accruals (docs/lending/loans.md, "Accruals"): every LENDING_ACCRUALS_INTERVAL_MS each
 * replica brings every organization's active loans up to today (PeriodicJob: the first round at a random
 * point of the first interval, one round at a time, shutdown waits for it). Replicas share the book:
 * each loan is claimed with FOR UPDATE SKIP LOCKED and a day is posted once whoever runs it, so running
 * often is cheap (a loan already up to date is not even listed). A missed day (an outage) is caught up
 * by the next round, day by day; an organization whose round fails is tried again the next time.
 */
@Injectable()
export class AccrualsJob extends PeriodicJob<Round> {
  constructor(
    private readonly cfg: LendingConfig,
    private readonly owners: OwnersRepository,
    private readonly runs: AccrualRuns,
  ) {
    super('AccrualsJob', cfg.LENDING_ACCRUALS_INTERVAL_MS);
  }

  protected intervalMs(): number {
    return this.cfg.LENDING_ACCRUALS_INTERVAL_MS;
  }

  protected work(): Promise<Round> {
    return this.run(todayUtc());
  }

  protected override describe(r: Round): string | null {
    return r.loans || r.failed
      ? `${r.loans} loans to ${r.asOf}: ${r.transactions} postings, ${r.skipped} skipped, ${r.failed} failed, ${r.capped} capped`
      : null;
  }

  /** Every organization's loans up to `asOf` (tests call it; the schedule runs it for today). */
  async run(asOf = todayUtc()): Promise<Round> {
    const round: Round = { asOf, loans: 0, transactions: 0, skipped: 0, failed: 0, capped: 0 };
    for (const id of await this.owners.ids()) {
      if (this.stopping) break;
      try {
        const r: AccrualRun = await this.runs.organization(asOrganizationId(id), asOf, () => this.stopping);
        round.loans += r.loans;
        round.transactions += r.transactions;
        round.skipped += r.skipped;
        round.failed += r.failed;
        round.capped += r.capped;
      } catch (err) {
        // The next organization, and the next round, may fare better (e.g. its database is unreachable).
        round.failed += 1;
        this.logger.warn(`${id}: ${(err as Error).message}`);
      }
    }
    return round;
  }
}
