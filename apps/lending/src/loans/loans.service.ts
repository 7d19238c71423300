import { Injectable } from '@nestjs/common';
import type { ListValue } from '@platform/envelope';
import type { Language } from '@platform/i18n';
import type { Tx } from '@platform/persistence';
import type { OrganizationId } from '@platform/tenancy';
import { TenantData } from '../tenancy/tenant-data';
import type { LoanActionRequest } from './dto/loan.request';
import type { GetLoansRequest } from './dto/get-loans.request';
import type { LoanResponse, LoanStatusResponse } from './dto/loan.response';
import { LoanEvents } from './events/loan-events';
import { principalOwed } from './ledger/balances';
import { LoanBook } from './ledger/loan-book';
import { LoanMoves } from './loan-moves';
import { LoanTexts } from './loan-texts';
import { LoanViews } from './loan-views';
import type { Loan } from './loan.entity';
import { LOAN_STATUSES, TERMINAL_LOAN_STATUSES } from './loan-workflow';
import { LoanError, loanError } from './loans.errors';
import { LoansRepository } from './loans.repository';

/**
 * Loan contracts: cancel before disbursement, read, list. They are made from an approved application
 * by origination/ (CreateLoan), which sits above this area.
 */
@Injectable()
export class LoansService {
  constructor(
    private readonly data: TenantData,
    private readonly loans: LoansRepository,
    private readonly moves: LoanMoves,
    private readonly book: LoanBook,
    private readonly views: LoanViews,
    private readonly texts: LoanTexts,
    private readonly events: LoanEvents,
  ) {}

  /** A created loan that will not be paid out: created -> cancelled (no money moved, none to undo). */
  async cancel(
    organizationId: OrganizationId,
    dto: LoanActionRequest,
    lang: Language,
  ): Promise<LoanResponse> {
    await this.data.run(organizationId, async (tx) => {
      const loan = await this.moves.lockOrFail(organizationId, dto.loanId, tx);
      await this.moves.move(organizationId, loan, 'cancelled', 'CancelLoan', lang, tx);
      await this.events.record(tx, organizationId, { kind: 'cancelled', loan, reason: dto.reason ?? null });
    });
    return this.details(organizationId, dto.loanId, lang);
  }

  async details(organizationId: OrganizationId, id: string, lang: Language): Promise<LoanResponse> {
    return this.data.run(organizationId, (tx) => this.detailsIn(organizationId, id, lang, tx));
  }

  /** The loan as GetLoan answers it, read in the caller's transaction. */
  async detailsIn(organizationId: OrganizationId, id: string, lang: Language, tx: Tx): Promise<LoanResponse> {
    const loan = await this.byIdOrFail(organizationId, id, tx);
    return this.viewIn(organizationId, loan, lang, tx);
  }

  async viewIn(organizationId: OrganizationId, loan: Loan, lang: Language, tx: Tx): Promise<LoanResponse> {
    const position = await this.book.position(organizationId, loan.id, tx);
    return this.views.loan(
      loan,
      { rows: position.rows, principalOutstanding: principalOwed(position.balances) },
      lang,
    );
  }

  async page(
    organizationId: OrganizationId,
    q: GetLoansRequest,
    lang: Language,
  ): Promise<ListValue<LoanResponse>> {
    return this.data.run(organizationId, async (tx) => {
      const [rows, total] = await this.loans.pageOf(
        organizationId,
        { status: q.Status, customerId: q.CustomerId, applicationId: q.ApplicationId },
        q.Offset ?? 0,
        q.Count ?? 20,
        tx,
      );
      const items: LoanResponse[] = [];
      for (const loan of rows) items.push(await this.viewIn(organizationId, loan, lang, tx));
      return { items, total };
    });
  }

  /** The workflow as a dictionary: every status, its name and the moves out of it. */
  statuses(lang: Language): ListValue<LoanStatusResponse> {
    const items = LOAN_STATUSES.map((code) => ({
      code,
      name: this.texts.status(code, lang),
      terminal: TERMINAL_LOAN_STATUSES.includes(code),
      transitions: this.views.moves(code, lang),
    }));
    return { items, total: items.length };
  }

  async byIdOrFail(organizationId: OrganizationId, id: string, tx: Tx): Promise<Loan> {
    const loan = await this.loans.byId(organizationId, id, tx);
    if (!loan) throw loanError(LoanError.NOT_FOUND, { loanId: id });
    return loan;
  }
}
