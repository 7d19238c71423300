import { Injectable } from '@nestjs/common';
import type { Language } from '@platform/i18n';
import type { Tx } from '@platform/persistence';
import type { OrganizationId } from '@platform/tenancy';
import { CustomerStanding } from '../../customers/customer-standing.service';
import type { StandingOperation } from '../../customers/customer-standing';
import { LoanEvents } from '../../loans/events/loan-events';
import { todayUtc } from '../../loans/loan-dates';
import { LoanProductsRepository } from '../../loans/products/loan-products.repository';
import type { LoanApplication } from '../application.entity';
import { ApplicationTexts } from '../application-texts';
import { ApplicationError, applicationError } from '../applications.errors';
import { ApplicationsRepository } from '../applications.repository';
import {
  findTransition,
  standingOperationOf,
  type ApplicationAction,
  type ApplicationStatus,
  type MoveActor,
} from './application-workflow';
import { applicationEventsOf, offeredRate, type MoveDecision } from './application-events';
import { StatusHistoryRepository } from './status-history.repository';

/** Who makes a move: the calling key, or the rules (with the key whose call led to them). */
export interface MoveBy {
  actor: MoveActor;
  keyId: string | null;
}

/**
 * The one place an application's status changes: checks the move against the workflow table, writes
 * the status, appends the history line and announces the move to the bureau (application-events.ts,
 * through LoanEvents), in the caller's transaction and under the application's row lock
 * (`ApplicationsRepository.lock`), so concurrent moves serialise, exactly one of two conflicting moves
 * wins, and a move refused or rolled back announces nothing.
 */
@Injectable()
export class ApplicationWorkflowService {
  constructor(
    private readonly applications: ApplicationsRepository,
    private readonly history: StatusHistoryRepository,
    private readonly texts: ApplicationTexts,
    private readonly events: LoanEvents,
    private readonly products: LoanProductsRepository,
    private readonly standing: CustomerStanding,
  ) {}

  /** The application locked for a move, or 404 (another organization's id reads as unknown). */
  async lockOrFail(organizationId: OrganizationId, id: string, tx: Tx): Promise<LoanApplication> {
    const app = await this.applications.lock(organizationId, id, tx);
    if (!app) throw applicationError(ApplicationError.NOT_FOUND, { applicationId: id });
    return app;
  }

  /** The 409 of a move the table does not allow, naming both statuses in the request's language. */
  refused(from: string, to: ApplicationStatus, action: ApplicationAction, lang: Language) {
    return applicationError(
      ApplicationError.TRANSITION_NOT_ALLOWED,
      { fromName: this.texts.status(from, lang), toName: this.texts.status(to, lang) },
      { from, to, action },
    );
  }

  /**
   * `decision`: what the decision behind a move to approved, counter_offered or declined offered and
   * why (its event says so).
   */
  async move(
    organizationId: OrganizationId,
    app: LoanApplication,
    move: {
      to: ApplicationStatus;
      action: ApplicationAction;
      by: MoveBy;
      reason?: string | null;
      decision?: MoveDecision;
    },
    lang: Language,
    tx: Tx,
  ): Promise<void> {
    const transition = findTransition(app.status, move.to, move.action, move.by.actor);
    if (!transition) throw this.refused(app.status, move.to, move.action, lang);
    const operation = standingOperationOf(transition);
    if (operation && app.customerId)
      await this.standing.assertMay(
        organizationId,
        app.customerId,
        operation,
        await this.requiredConsents(organizationId, app, tx),
        lang,
        tx,
      );
    // Entering the checks stamps the run's claim (a stale claim may be taken over, CHECKS_LEASE_MS).
    const claim = move.to === 'checks_in_progress' ? { checksStartedAt: new Date() } : {};
    await this.applications.change(organizationId, app.id, { status: move.to, ...claim }, tx);
    await this.history.append(
      organizationId,
      {
        applicationId: app.id,
        fromStatus: app.status,
        toStatus: move.to,
        action: move.action,
        actor: move.by.actor,
        keyId: move.by.keyId,
        reason: move.reason ?? null,
      },
      tx,
    );
    const rate = move.decision?.offer
      ? offeredRate(move.decision.offer.annualRateBps, await this.productRate(organizationId, app, tx))
      : undefined;
    const events = applicationEventsOf(
      app,
      { from: app.status, to: move.to, decision: move.decision, rate },
      todayUtc(),
    );
    for (const e of events) await this.events.emit(tx, organizationId, e.type, e.body as never);
    Object.assign(app, { status: move.to, ...claim });
  }

  /**
   * Why the customer's standing (or a consent the product requires) refuses `operation` for this
   * application, or null when nothing does: for the decision rules, which hold a refused approval for
   * a person instead of failing the run. Share-locks the customer until `tx` ends.
   */
  async standingRefusal(
    organizationId: OrganizationId,
    app: LoanApplication,
    operation: StandingOperation,
    tx: Tx,
  ): Promise<string | null> {
    if (!app.customerId) return null;
    const checked = await this.standing.check(
      organizationId,
      app.customerId,
      operation,
      await this.requiredConsents(organizationId, app, tx),
      tx,
    );
    return checked?.refusal ? this.standing.describe(checked.refusal) : null;
  }

  /** The consents the product the application names requires (none when no such product exists). */
  private async requiredConsents(organizationId: OrganizationId, app: LoanApplication, tx: Tx) {
    if (!app.productCode) return [];
    const product = await this.products.byCode(organizationId, app.productCode, tx);
    return product?.requiredConsents ?? [];
  }

  /** The rate of the lender's product the application names, when it exists in its currency. */
  private async productRate(organizationId: OrganizationId, app: LoanApplication, tx: Tx) {
    if (!app.productCode) return null;
    const product = await this.products.byCode(organizationId, app.productCode, tx);
    return product && product.currency === app.currency ? product.annualRate : null;
  }

  /** The first history line: the application's creation as a draft. */
  async created(organizationId: OrganizationId, applicationId: string, keyId: string, tx: Tx): Promise<void> {
    await this.history.append(
      organizationId,
      {
        applicationId,
        fromStatus: null,
        toStatus: 'draft',
        action: 'CreateApplication',
        actor: 'key',
        keyId,
        reason: null,
      },
      tx,
    );
  }

  /** A history line that is not a move (a check run taking over one that died). */
  async note(
    organizationId: OrganizationId,
    app: LoanApplication,
    entry: { action: ApplicationAction; by: MoveBy; reason: string },
    tx: Tx,
  ): Promise<void> {
    await this.history.append(
      organizationId,
      {
        applicationId: app.id,
        fromStatus: app.status,
        toStatus: app.status,
        action: entry.action,
        actor: entry.by.actor,
        keyId: entry.by.keyId,
        reason: entry.reason,
      },
      tx,
    );
  }
}
