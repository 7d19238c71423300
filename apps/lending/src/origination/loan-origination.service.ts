import { Injectable } from '@nestjs/common';
import type { Language } from '@platform/i18n';
import type { OrganizationId } from '@platform/tenancy';
import { ApplicationHandover } from '../applications/application-handover';
import { CustomerStanding } from '../customers/customer-standing.service';
import type { CreateLoanRequest } from '../loans/dto/loan.request';
import type { LoanResponse } from '../loans/dto/loan.response';
import { bpsToPercent, percentOf, periodsOfMonths } from '../loans/loan-terms';
import { LoanError, loanError } from '../loans/loans.errors';
import { APPLICATION_HAS_LOAN, LoansRepository } from '../loans/loans.repository';
import { LoansService } from '../loans/loans.service';
import { LoanProductsService } from '../loans/products/loan-products.service';
import { TenantData } from '../tenancy/tenant-data';

/**
 * CreateLoan: the contract made from an approved application on a product (docs/lending/loans.md).
 * Origination sits above both areas: it reads what was approved through the applications area's one
 * door (ApplicationHandover) and writes the loan through the loans area's repository, so neither
 * area imports the other's internals. In one transaction, under the application's lock and the
 * customer's share lock (their standing and the product's required consents are checked there).
 */
@Injectable()
export class LoanOrigination {
  constructor(
    private readonly data: TenantData,
    private readonly handover: ApplicationHandover,
    private readonly standing: CustomerStanding,
    private readonly loans: LoansRepository,
    private readonly products: LoanProductsService,
    private readonly reader: LoansService,
  ) {}

  async create(
    organizationId: OrganizationId,
    keyId: string,
    dto: CreateLoanRequest,
    lang: Language,
  ): Promise<LoanResponse> {
    const id = await this.data.run(organizationId, async (tx) => {
      const app = await this.handover.lockForContract(organizationId, dto.applicationId, lang, tx);
      if (!app) throw loanError(LoanError.APPLICATION_NOT_FOUND, { applicationId: dto.applicationId });
      const product = await this.products.byIdOrFail(organizationId, dto.productId, tx);
      if (!app.lendable || !app.customerId)
        throw loanError(
          LoanError.APPLICATION_NOT_APPROVED,
          { statusName: app.statusName },
          { status: app.status },
        );
      if (!product.active) throw loanError(LoanError.PRODUCT_INACTIVE, { code: product.code });
      await this.standing.assertMay(
        organizationId,
        app.customerId,
        'CreateLoan',
        product.requiredConsents,
        lang,
        tx,
      );
      const approved = app.approved;
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
          annualRate:
            approved.annualRateBps !== null ? bpsToPercent(approved.annualRateBps) : product.annualRate,
          frequency: product.frequency,
          scheduleType: product.scheduleType,
          dayCount: product.dayCount,
          interestMethod: product.interestMethod,
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
    return this.reader.details(organizationId, id, lang);
  }
}
