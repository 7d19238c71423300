import { Injectable } from '@nestjs/common';
import type { ListValue } from '@platform/envelope';
import type { Language } from '@platform/i18n';
import type { Tx } from '@platform/persistence';
import type { OrganizationId } from '@platform/tenancy';
import type { LoanApplication } from '../applications/application.entity';
import { ApplicationTexts } from '../applications/application-texts';
import { ApplicationsRepository } from '../applications/applications.repository';
import { ApplicationDecisionsRepository } from '../applications/decisions/application-decisions.repository';
import { TenantData } from '../tenancy/tenant-data';
import type { CreateLoanRequest, LoanActionRequest } from './dto/loan.request';
import type { GetLoansRequest } from './dto/get-loans.request';
import type { LoanResponse, LoanStatusResponse } from './dto/loan.response';
import { LoanEvents } from './events/loan-events';
import { principalOwed } from './ledger/balances';
import { LoanBook } from './ledger/loan-book';
import { bpsToPercent, percentOf, periodsOfMonths } from './loan-terms';
import { LoanMoves } from './loan-moves';
import { LoanTexts } from './loan-texts';
import { LoanViews } from './loan-views';
import type { Loan } from './loan.entity';
import { LOAN_STATUSES, TERMINAL_LOAN_STATUSES } from './loan-workflow';
import { LoanError, loanError } from './loans.errors';
import { APPLICATION_HAS_LOAN, LoansRepository } from './loans.repository';
import { LoanProductsService } from './products/loan-products.service';

/** Application statuses a loan may be made from: approved, or its offer accepted by the customer. */
export const LENDABLE_APPLICATION_STATUSES = ['approved', 'accepted'] as const;

/** What the application was approved for: the latest approving decision's offer, else its request. */
interface Approved {
  amount: number;
  termMonths: number;
  currency: string;
  annualRate: string | null;
}

/** Loan contracts: create from an approved application, cancel before disbursement, read, list. */
@Injectable()
export class LoansService {
  constructor(
    private readonly data: TenantData,
    private readonly loans: LoansRepository,
    private readonly applications: ApplicationsRepository,
    private readonly decisions: ApplicationDecisionsRepository,
    private readonly applicationTexts: ApplicationTexts,
    private readonly products: LoanProductsService,
    private readonly moves: LoanMoves,
    private readonly book: LoanBook,
    private readonly views: LoanViews,
    private readonly texts: LoanTexts,
    private readonly events: LoanEvents,
  ) {}

  async create(
    organizationId: OrganizationId,
    keyId: string,
    dto: CreateLoanRequest,
    lang: Language,
  ): Promise<LoanResponse> {
    const id = await this.data.run(organizationId, async (tx) => {
      const app = await this.applications.lock(organizationId, dto.applicationId, tx);
      if (!app) throw loanError(LoanError.APPLICATION_NOT_FOUND, { applicationId: dto.applicationId });
      const product = await this.products.byIdOrFail(organizationId, dto.productId, tx);
      if (!(LENDABLE_APPLICATION_STATUSES as readonly string[]).includes(app.status) || !app.customerId)
        throw loanError(
          LoanError.APPLICATION_NOT_APPROVED,
          { statusName: this.applicationTexts.status(app.status, lang) },
          { status: app.status },
        );
      if (!product.active) throw loanError(LoanError.PRODUCT_INACTIVE, { code: product.code });
      const approved = await this.approved(organizationId, app, tx);
      if (approved.currency !== product.currency)
        throw loanError(
          LoanError.CURRENCY_MISMATCH,
          { productCurrency: product.currency, applicationCurrency: approved.currency },
          { productCurrency: product.currency, applicationCurrency: approved.currency },
        );
      const amount = dto.amount ?? Math.min(approved.amount, product.maxAmount);
      if (amount > approved.amount)
        throw loanError(
          LoanError.AMOUNT_ABOVE_APPROVED,
          { approved: approved.amount },
          { approved: approved.amount },
        );
      if (amount < product.minAmount || amount > product.maxAmount)
        throw loanError(
          LoanError.AMOUNT_OUT_OF_RANGE,
          { min: product.minAmount, max: product.maxAmount },
          { min: product.minAmount, max: product.maxAmount },
        );
      const termCount = dto.termCount ?? periodsOfMonths(approved.termMonths, product.frequency);
      if (termCount === null) throw loanError(LoanError.TERM_REQUIRED, { months: approved.termMonths });
      if (termCount < product.minTerm || termCount > product.maxTerm)
        throw loanError(
          LoanError.TERM_OUT_OF_RANGE,
          { min: product.minTerm, max: product.maxTerm },
          { min: product.minTerm, max: product.maxTerm },
        );
      const created = await this.loans.create(
        organizationId,
        {
          applicationId: app.id,
          customerId: app.customerId,
          productId: product.id,
          status: 'created',
          currency: product.currency,
          principal: amount,
          termCount,
          // The underwriter's rate when the offer named one (risk-based pricing), else the product's.
          annualRate: approved.annualRate ?? product.annualRate,
          frequency: product.frequency,
          scheduleType: product.scheduleType,
          dayCount: product.dayCount,
          graceInterestOnly: product.graceInterestOnly,
          gracePrincipal: product.gracePrincipal,
          originationFee: product.originationFee + percentOf(amount, product.originationFeePercent),
          penaltyAnnualRate: product.penaltyAnnualRate,
          penaltyGraceDays: product.penaltyGraceDays,
          allocationOrder: product.allocationOrder,
          rounding: product.rounding,
          disbursedOn: null,
          closedOn: null,
          createdByKeyId: keyId,
        },
        tx,
      );
      if (created === APPLICATION_HAS_LOAN)
        throw loanError(LoanError.APPLICATION_HAS_LOAN, { applicationId: app.id });
      return created;
    });
    return this.details(organizationId, id, lang);
  }

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

  private async approved(organizationId: OrganizationId, app: LoanApplication, tx: Tx): Promise<Approved> {
    const decisions = await this.decisions.forApplication(organizationId, app.id, tx);
    const offer = [...decisions]
      .reverse()
      .find((d) => (d.outcome === 'approve' || d.outcome === 'counter_offer') && d.offeredAmount !== null);
    return {
      amount: offer?.offeredAmount ?? app.amount ?? 0,
      termMonths: offer?.offeredTermMonths ?? app.termMonths ?? 0,
      currency: offer?.offeredCurrency ?? app.currency ?? '',
      annualRate: offer?.offeredRateBps != null ? bpsToPercent(offer.offeredRateBps) : null,
    };
  }
}
