import { Injectable } from '@nestjs/common';
import type { ListValue } from '@platform/envelope';
import type { Language } from '@platform/i18n';
import type { OrganizationId } from '@platform/tenancy';
import { TenantData } from '../tenancy/tenant-data';
import type { LoanPageRequest } from './dto/get-loans.request';
import type {
  InstalmentResponse,
  LoanBalancesResponse,
  LoanTransactionResponse,
} from './dto/ledger.response';
import { LedgerRepository } from './ledger/ledger.repository';
import { LoanBook } from './ledger/loan-book';
import { LoanViews } from './loan-views';
import { LoansService } from './loans.service';

/** A loan's schedule, ledger transactions and balances, all read from the schedule and the ledger. */
@Injectable()
export class LoanLedgerService {
  constructor(
    private readonly data: TenantData,
    private readonly loans: LoansService,
    private readonly ledger: LedgerRepository,
    private readonly book: LoanBook,
    private readonly views: LoanViews,
  ) {}

  /** The schedule in force with what was paid on each instalment (empty before the disbursement). */
  schedule(
    organizationId: OrganizationId,
    loanId: string,
    lang: Language,
  ): Promise<ListValue<InstalmentResponse>> {
    return this.data.run(organizationId, async (tx) => {
      await this.loans.byIdOrFail(organizationId, loanId, tx);
      const position = await this.book.position(organizationId, loanId, tx);
      const items = position.rows.map((r) => this.views.instalment(r, lang));
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
