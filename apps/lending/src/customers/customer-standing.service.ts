import { Injectable } from '@nestjs/common';
import type { Language } from '@platform/i18n';
import type { Tx } from '@platform/persistence';
import type { OrganizationId } from '@platform/tenancy';
import { CustomerConsentsRepository } from './consents/customer-consents.repository';
import type { Customer } from './customer.entity';
import {
  CONSENT_GATED_OPERATIONS,
  firstMissingConsent,
  mayStart,
  type StandingOperation,
} from './customer-standing';
import { CustomerTexts } from './customer-texts';
import { CustomersError, customersError } from './customers.errors';
import { CustomersRepository } from './customers.repository';

/** Why an operation may not start: the customer's status, or a required consent not in force. */
export type StandingRefusal =
  | { kind: 'status'; status: Customer['status'] }
  | { kind: 'consent'; consentType: string; state: 'none' | 'withdrawn' };

/**
 * The one check of a customer's standing (customer-standing.ts) that every operation starting new
 * business or moving money out calls, inside its own transaction: the customer is share-locked (a
 * status change or a consent event waits for the operation, and the reverse), then the status and the
 * product's required consents are read. A refusal throws before the operation writes anything.
 */
@Injectable()
export class CustomerStanding {
  constructor(
    private readonly customers: CustomersRepository,
    private readonly consents: CustomerConsentsRepository,
    private readonly texts: CustomerTexts,
  ) {}

  /**
   * The customer, share-locked, when `operation` may start for them; null when the customer does not
   * exist in the organization (each caller answers its own not-found). Otherwise throws
   * CUSTOMER_NOT_IN_GOOD_STANDING or CUSTOMER_CONSENT_REQUIRED (both 409).
   */
  async assertMay(
    organizationId: OrganizationId,
    customerId: string,
    operation: StandingOperation,
    requiredConsents: readonly string[],
    lang: Language,
    tx: Tx,
  ): Promise<Customer | null> {
    const checked = await this.check(organizationId, customerId, operation, requiredConsents, tx);
    if (!checked) return null;
    if (checked.refusal) throw this.error(customerId, operation, checked.refusal, lang);
    return checked.customer;
  }

  /**
   * The same check without throwing, for the decision rules (which send a refused approval to a
   * person instead of failing the check run): null when the customer does not exist.
   */
  async check(
    organizationId: OrganizationId,
    customerId: string,
    operation: StandingOperation,
    requiredConsents: readonly string[],
    tx: Tx,
  ): Promise<{ customer: Customer; refusal: StandingRefusal | null } | null> {
    const customer = await this.customers.lockShared(organizationId, customerId, tx);
    if (!customer) return null;
    if (!mayStart(customer.status, operation))
      return { customer, refusal: { kind: 'status', status: customer.status } };
    if (requiredConsents.length && CONSENT_GATED_OPERATIONS.includes(operation)) {
      const missing = firstMissingConsent(
        requiredConsents,
        await this.consents.current(organizationId, customerId, tx),
      );
      if (missing)
        return { customer, refusal: { kind: 'consent', consentType: missing.type, state: missing.state } };
    }
    return { customer, refusal: null };
  }

  /** A refusal in words, for a history line or a decision note (English, like every stored reason). */
  describe(refusal: StandingRefusal): string {
    return refusal.kind === 'status'
      ? `customer is ${refusal.status}`
      : `consent ${refusal.consentType} not in force (${refusal.state === 'none' ? 'never given' : 'withdrawn'})`;
  }

  private error(customerId: string, operation: StandingOperation, refusal: StandingRefusal, lang: Language) {
    if (refusal.kind === 'status')
      return customersError(
        CustomersError.NOT_IN_GOOD_STANDING,
        { operation, statusName: this.texts.customerStatus(refusal.status, lang) },
        { customerId, status: refusal.status, operation },
      );
    return customersError(
      CustomersError.CONSENT_REQUIRED,
      {
        operation,
        consentType: refusal.consentType,
        stateName: this.texts.consentState(refusal.state, lang),
      },
      { customerId, consentType: refusal.consentType, consentState: refusal.state, operation },
    );
  }
}
