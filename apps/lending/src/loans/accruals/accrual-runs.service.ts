import { Injectable, Logger } from '@nestjs/common';
import type { OrganizationId } from '@platform/tenancy';
import { LendingConfig } from '../../config/lending.config';
import { TenantData } from '../../tenancy/tenant-data';
import { todayUtc } from '../loan-dates';
import { LoanError, loanError } from '../loans.errors';
import type { AccrualRunResponse } from './dto/accrual-run.response';
import type { RunAccrualsRequest } from './dto/run-accruals.request';
import { LoanMoves } from '../loan-moves';
import { LoansRepository } from '../loans.repository';
import { LoanAccruals, noAccruals, type AccrualTotals } from './loan-accruals.service';
import { LoanAccrualsRepository } from './loan-accruals.repository';

/** Loans listed per query: short statements whatever the book's size. */
const BATCH = 200;

/** What a run did. */
export interface AccrualRun extends AccrualTotals {
  /** Loans caught up (those already up to date are not counted). */
  loans: number;
  /** Loans passed over because another replica or an operation held them (they catch up themselves). */
  skipped: number;
  /** Loans whose catch-up failed (logged; the next run tries again). */
  failed: number;
}

const add = (a: AccrualRun, b: AccrualTotals): void => {
  for (const k of Object.keys(b) as (keyof AccrualTotals)[]) a[k] += b[k];
};

/**
 * Runs the accruals of an organization's loans up to a date (the scheduled job, RunAccruals). Each loan
 * in its own tenant transaction, claimed with FOR UPDATE SKIP LOCKED: replicas running at once share the
 * book instead of queueing, and a loan an operation holds is skipped (the operation catches it up before
 * it books). A loan already at the date costs nothing: only loans behind it are listed.
 */
@Injectable()
export class AccrualRuns {
  private readonly logger = new Logger('AccrualRuns');

  constructor(
    private readonly data: TenantData,
    private readonly loans: LoansRepository,
    private readonly moves: LoanMoves,
    private readonly accruals: LoanAccruals,
    private readonly postings: LoanAccrualsRepository,
    private readonly cfg: LendingConfig,
  ) {}

  /**
   * RunAccruals: the caller's organization's loans, or one, up to `asOf` (default today). 403 where the
   * route is switched off; 422 for a day after today: accruing days that have not happened would book
   * interest not yet earned and refuse every payment dated before them. A date already reached changes
   * nothing: accruals are never undone by a run.
   */
  async requested(organizationId: OrganizationId, dto: RunAccrualsRequest): Promise<AccrualRunResponse> {
    if (!this.cfg.accrualsRouteOn()) throw loanError(LoanError.ACCRUALS_ROUTE_DISABLED);
    const today = todayUtc();
    const asOf = dto.asOf ?? today;
    if (asOf > today)
      throw loanError(
        LoanError.VALUE_DATE_OUT_OF_RANGE,
        { date: asOf, earliest: '1900-01-01', latest: today },
        { earliest: '1900-01-01', latest: today },
      );
    const run = dto.loanId
      ? await this.loan(organizationId, dto.loanId, asOf)
      : await this.organization(organizationId, asOf);
    return { asOf, ...run };
  }

  async organization(
    organizationId: OrganizationId,
    asOf: string,
    stopping: () => boolean = () => false,
  ): Promise<AccrualRun> {
    const run: AccrualRun = { ...noAccruals(), loans: 0, skipped: 0, failed: 0 };
    let after: string | null = null;
    for (;;) {
      const ids = await this.data.run(organizationId, (tx) =>
        this.postings.behind(organizationId, asOf, after, BATCH, tx),
      );
      for (const id of ids) {
        if (stopping()) return run;
        after = id;
        try {
          const done = await this.data.run(organizationId, async (tx) => {
            const loan = await this.loans.claim(organizationId, id, tx);
            return loan ? this.accruals.catchUp(organizationId, loan, asOf, tx) : null;
          });
          if (!done) run.skipped += 1;
          else {
            run.loans += 1;
            add(run, done);
          }
        } catch (err) {
          run.failed += 1;
          this.logger.warn(`${organizationId}/${id}: accruals failed: ${(err as Error).message}`);
        }
      }
      if (ids.length < BATCH) return run;
    }
  }

  /** One loan, waiting for its lock (404 for an unknown loan or another organization's). */
  async loan(organizationId: OrganizationId, loanId: string, asOf: string): Promise<AccrualRun> {
    return this.data.run(organizationId, async (tx) => {
      const loan = await this.moves.lockOrFail(organizationId, loanId, tx);
      const done = await this.accruals.catchUp(organizationId, loan, asOf, tx);
      return { ...done, loans: done.transactions > 0 ? 1 : 0, skipped: 0, failed: 0 };
    });
  }
}
