import { Injectable } from '@nestjs/common';
import type { Language } from '@platform/i18n';
import type { Tx } from '@platform/persistence';
import type { OrganizationId } from '@platform/tenancy';
import { CustomerStanding } from '../customers/customer-standing.service';
import type { Loan } from './loan.entity';
import { LoanProductsRepository } from './products/loan-products.repository';

/**
 * Whether a loan's money may go out now: its customer's standing allows DisburseLoan and every consent
 * its product requires is in force (customers/customer-standing.ts). Called first in DisburseLoan's
 * transaction, right after the loan is locked, so a refusal writes nothing.
 */
@Injectable()
export class DisbursementStanding {
  constructor(
    private readonly standing: CustomerStanding,
    private readonly products: LoanProductsRepository,
  ) {}

  /** Throws CUSTOMER_NOT_IN_GOOD_STANDING or CUSTOMER_CONSENT_REQUIRED (409). */
  async assertMayDisburse(organizationId: OrganizationId, loan: Loan, lang: Language, tx: Tx): Promise<void> {
    const product = await this.products.byId(organizationId, loan.productId, tx);
    await this.standing.assertMay(
      organizationId,
      loan.customerId,
      'DisburseLoan',
      product?.requiredConsents ?? [],
      lang,
      tx,
    );
  }
}
