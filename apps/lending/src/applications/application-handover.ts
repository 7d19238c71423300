import { Injectable } from '@nestjs/common';
import type { Language } from '@platform/i18n';
import type { Tx } from '@platform/persistence';
import type { OrganizationId } from '@platform/tenancy';
import { ApplicationTexts } from './application-texts';
import { ApplicationsRepository } from './applications.repository';
import { ApplicationDecisionsRepository } from './decisions/application-decisions.repository';
import { LENDABLE_STATUSES } from './workflow/application-workflow';

/** What the application was approved for: the latest approving decision's offer, else its request. */
export interface ApprovedTerms {
  amount: number;
  termMonths: number;
  currency: string;
  /** The underwriter's rate, basis points a year, when the offer named one (risk-based pricing). */
  annualRateBps: number | null;
}

/** An application as a contract is made from it (origination/, CreateLoan). */
export interface ApplicationForContract {
  id: string;
  customerId: string | null;
  status: string;
  /** The status's name in the request's language, for the refusal of an application not approved. */
  statusName: string;
  /** Approved, or its offer accepted, with a customer: a contract may be made from it. */
  lendable: boolean;
  productCode: string | null;
  approved: ApprovedTerms;
}

/**
 * The one door through which an approved application is handed over to the contract (origination/):
 * the applications area says what was approved; the loans area never reads applications itself.
 */
@Injectable()
export class ApplicationHandover {
  constructor(
    private readonly applications: ApplicationsRepository,
    private readonly decisions: ApplicationDecisionsRepository,
    private readonly texts: ApplicationTexts,
  ) {}

  /**
   * The application locked until `tx` ends (a second contract from it, or a move, waits), or null
   * when the organization has no such application.
   */
  async lockForContract(
    organizationId: OrganizationId,
    applicationId: string,
    lang: Language,
    tx: Tx,
  ): Promise<ApplicationForContract | null> {
    const app = await this.applications.lock(organizationId, applicationId, tx);
    if (!app) return null;
    const decisions = await this.decisions.forApplication(organizationId, app.id, tx);
    const offer = [...decisions]
      .reverse()
      .find((d) => (d.outcome === 'approve' || d.outcome === 'counter_offer') && d.offeredAmount !== null);
    return {
      id: app.id,
      customerId: app.customerId,
      status: app.status,
      statusName: this.texts.status(app.status, lang),
      lendable: (LENDABLE_STATUSES as readonly string[]).includes(app.status) && !!app.customerId,
      productCode: app.productCode,
      approved: {
        amount: offer?.offeredAmount ?? app.amount ?? 0,
        termMonths: offer?.offeredTermMonths ?? app.termMonths ?? 0,
        currency: offer?.offeredCurrency ?? app.currency ?? '',
        annualRateBps: offer?.offeredRateBps ?? null,
      },
    };
  }
}
