import { Injectable } from '@nestjs/common';
import type { ListValue } from '@platform/envelope';
import type { Language } from '@platform/i18n';
import type { OrganizationId } from '@platform/tenancy';
import { TenantData } from '../tenancy/tenant-data';
import { loanCostOfCredit } from './cost-of-credit';
import type { LoanScheduleResponse } from './dto/cost-of-credit.response';
import type { LoanPageRequest } from './dto/get-loans.request';
import type {
  LoanBalancesResponse,
  LoanTransactionResponse,
  ScheduleVersionResponse,
} from './dto/ledger.response';
import { LedgerRepository } from './ledger/ledger.repository';
import { LoanBook, positionRow } from './ledger/loan-book';
import { todayUtc } from './loan-dates';
import { LoanTexts } from './loan-texts';
import { LoanViews } from './loan-views';
import { LoanError, loanError } from './loans.errors';
import { LoansService } from './loans.service';
import { InstalmentsRepository } from './schedule/instalments.repository';
import { ScheduleVersionsRepository } from './schedule/schedule-versions.repository';

/** A loan's schedule, ledger transactions and balances, all read from the schedule and the ledger. */
@Injectable()
export class LoanLedgerService {
  constructor(
    private readonly data: TenantData,
    private readonly loans: LoansService,
    private readonly ledger: LedgerRepository,
    private readonly book: LoanBook,
    private readonly views: LoanViews,
    private readonly texts: LoanTexts,
    private readonly instalments: InstalmentsRepository,
    private readonly versions: ScheduleVersionsRepository,
  ) {}

  /**
   * The schedule in force with what was paid on each instalment (empty before the disbursement), or a
   * version of its history: that version's rows with what the ledger has paid on each today, the ones
   * no longer in force marked `superseded`. An unknown version is 404 LOAN_SCHEDULE_VERSION_NOT_FOUND.
   */
  schedule(
    organizationId: OrganizationId,
    loanId: string,
    version: number | undefined,
    lang: Language,
  ): Promise<LoanScheduleResponse> {
    return this.data.run(organizationId, async (tx) => {
      const loan = await this.loans.byIdOrFail(organizationId, loanId, tx);
      if (version === undefined) {
        const position = await this.book.position(organizationId, loanId, tx);
        const items = position.rows.map((r) => this.views.instalment(r, lang));
        // The cost GetLoan shows: before the disbursement (no schedule yet) the one its terms project.
        const costOfCredit = loanCostOfCredit(loan, position.rows, todayUtc());
        return { items, total: items.length, costOfCredit };
      }
      const v = (await this.versions.list(organizationId, loanId, tx)).find((x) => x.version === version);
      if (!v) throw loanError(LoanError.SCHEDULE_VERSION_NOT_FOUND, { version }, { version });
      const rows = await this.instalments.byIds(organizationId, loanId, v.instalmentIds, tx);
      const paid = await this.ledger.paidByInstalment(organizationId, loanId, tx);
      const items = rows.map((r) =>
        this.views.instalment(positionRow(r, paid.get(r.id)), lang, undefined, r.supersededBy !== null),
      );
      return { items, total: items.length, costOfCredit: null };
    });
  }

  /** The versions of the loan's schedule, oldest first, with what made each and what it held. */
  scheduleVersions(
    organizationId: OrganizationId,
    loanId: string,
    lang: Language,
  ): Promise<ListValue<ScheduleVersionResponse>> {
    return this.data.run(organizationId, async (tx) => {
      await this.loans.byIdOrFail(organizationId, loanId, tx);
      const versions = await this.versions.list(organizationId, loanId, tx);
      const rows = await this.instalments.byIds(
        organizationId,
        loanId,
        [...new Set(versions.flatMap((v) => v.instalmentIds))],
        tx,
      );
      const byId = new Map(rows.map((r) => [r.id, r]));
      const items = versions.map((v, i): ScheduleVersionResponse => {
        const own = v.instalmentIds.map((id) => byId.get(id)).filter((r) => r !== undefined);
        const sum = (f: (r: (typeof own)[number]) => number) => own.reduce((s, r) => s + f(r), 0);
        return {
          version: v.version,
          inForce: i === versions.length - 1,
          transactionId: v.transactionId,
          kind: v.kind,
          kindName: this.texts.name('transactionKinds', v.kind, lang),
          valueDate: v.valueDate,
          instalments: own.length,
          firstDueDate: own[0]?.dueDate ?? null,
          maturityDate: own.at(-1)?.dueDate ?? null,
          principal: sum((r) => r.principal),
          interest: sum((r) => r.interest),
          fees: sum((r) => r.fees),
          createdAt: v.createdAt.toISOString(),
        };
      });
      return { items, total: items.length };
    });
  }

  /** The loan's ledger transactions with their lines, oldest first. */
  transactions(
    organizationId: OrganizationId,
    q: LoanPageRequest,
    lang: Language,
  ): Promise<ListValue<LoanTransactionResponse>> {
    return this.data.run(organizationId, async (tx) => {
      await this.loans.byIdOrFail(organizationId, q.LoanId, tx);
      const [rows, total] = await this.ledger.pageOf(
        organizationId,
        q.LoanId,
        q.Offset ?? 0,
        q.Count ?? 20,
        tx,
      );
      const lines = await this.ledger.linesOf(
        organizationId,
        rows.map((r) => r.id),
        tx,
      );
      const reversals = await this.ledger.reversalsOf(organizationId, q.LoanId, tx);
      return {
        items: rows.map((t) =>
          this.views.ledgerTransaction(
            t,
            lines.filter((l) => l.transactionId === t.id),
            reversals.get(t.id) ?? null,
            lang,
          ),
        ),
        total,
      };
    });
  }

  balances(organizationId: OrganizationId, loanId: string, lang: Language): Promise<LoanBalancesResponse> {
    return this.data.run(organizationId, async (tx) => {
      const loan = await this.loans.byIdOrFail(organizationId, loanId, tx);
      const totals = await this.ledger.totals(organizationId, loanId, tx);
      return this.views.balances(loan.id, loan.currency, totals, lang);
    });
  }
}
