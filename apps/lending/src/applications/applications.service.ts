import { Injectable } from '@nestjs/common';
import type { ListValue } from '@platform/envelope';
import type { Language } from '@platform/i18n';
import type { Tx } from '@platform/persistence';
import type { OrganizationId } from '@platform/tenancy';
import { CustomerStanding } from '../customers/customer-standing.service';
import type { LoanProduct } from '../loans/products/loan-product.entity';
import { LoanProductsRepository } from '../loans/products/loan-products.repository';
import { TenantData } from '../tenancy/tenant-data';
import type { LoanApplication } from './application.entity';
import type { ApplicationChannel } from './application-channels';
import { ApplicationTexts } from './application-texts';
import { ApplicationViews } from './application-views';
import { ApplicationError, applicationError } from './applications.errors';
import { ApplicationsRepository, type ApplicationChange } from './applications.repository';
import { ApplicationChecksRepository } from './checks/application-checks.repository';
import { ApplicationDecisionsRepository } from './decisions/application-decisions.repository';
import { DECISION_REASONS } from './decisions/decision-reasons';
import type { CreateApplicationRequest, UpdateApplicationRequest } from './dto/application.request';
import type { ApplicationDetailsResponse, ApplicationResponse } from './dto/application.response';
import type { DecisionReasonResponse } from './dto/decision.response';
import type { ApplicationPageRequest, GetApplicationsRequest } from './dto/get-applications.request';
import type { StatusChangeResponse } from './dto/history.response';
import type { ApplicationStatusResponse } from './dto/statuses.response';
import { APPLICATION_STATUSES, TERMINAL_STATUSES } from './workflow/application-workflow';
import { ApplicationWorkflowService } from './workflow/application-workflow.service';
import { StatusHistoryRepository } from './workflow/status-history.repository';

/** Applications: create, read, list, change while a draft; the dictionaries and the status history. */
@Injectable()
export class ApplicationsService {
  constructor(
    private readonly data: TenantData,
    private readonly applications: ApplicationsRepository,
    private readonly standing: CustomerStanding,
    private readonly checks: ApplicationChecksRepository,
    private readonly decisions: ApplicationDecisionsRepository,
    private readonly statusHistory: StatusHistoryRepository,
    private readonly workflow: ApplicationWorkflowService,
    private readonly views: ApplicationViews,
    private readonly texts: ApplicationTexts,
    private readonly products: LoanProductsRepository,
  ) {}

  async create(
    organizationId: OrganizationId,
    keyId: string,
    dto: CreateApplicationRequest,
    lang: Language,
  ): Promise<ApplicationDetailsResponse> {
    const id = await this.data.run(organizationId, async (tx) => {
      await this.customerMayApply(organizationId, dto.customerId, lang, tx);
      const created = await this.applications.create(
        organizationId,
        {
          status: 'draft',
          customerId: dto.customerId,
          productCode: dto.product.productCode,
          amount: dto.product.amount,
          currency: dto.product.currency,
          termMonths: dto.product.termMonths,
          purpose: dto.product.purpose ?? null,
          channel: dto.channel as ApplicationChannel,
          nationalId: dto.applicant.nationalId,
          monthlyIncome: dto.applicant.monthlyIncome,
          monthlyExpenses: dto.applicant.monthlyExpenses ?? 0,
          createdByKeyId: keyId,
          checksStartedAt: null,
        },
        tx,
      );
      await this.workflow.created(organizationId, created, keyId, tx);
      return created;
    });
    return this.details(organizationId, id, lang);
  }

  /** Changes a draft: only the fields sent; anything past draft is 409 APPLICATION_NOT_EDITABLE. */
  async update(
    organizationId: OrganizationId,
    dto: UpdateApplicationRequest,
    lang: Language,
  ): Promise<ApplicationDetailsResponse> {
    await this.data.run(organizationId, async (tx) => {
      const app = await this.workflow.lockOrFail(organizationId, dto.applicationId, tx);
      if (app.status !== 'draft')
        throw applicationError(
          ApplicationError.NOT_EDITABLE,
          { statusName: this.texts.status(app.status, lang) },
          { status: app.status },
        );
      // Moving a draft to another customer is applying for them: the same standing as CreateApplication.
      if (dto.customerId !== undefined) await this.customerMayApply(organizationId, dto.customerId, lang, tx);
      const p = dto.product ?? {};
      const a = dto.applicant ?? {};
      const set: ApplicationChange = {
        ...(dto.customerId !== undefined ? { customerId: dto.customerId } : {}),
        ...(dto.channel !== undefined ? { channel: dto.channel as ApplicationChannel } : {}),
        ...(p.productCode !== undefined ? { productCode: p.productCode } : {}),
        ...(p.amount !== undefined ? { amount: p.amount } : {}),
        ...(p.currency !== undefined ? { currency: p.currency } : {}),
        ...(p.termMonths !== undefined ? { termMonths: p.termMonths } : {}),
        ...(p.purpose !== undefined ? { purpose: p.purpose } : {}),
        ...(a.nationalId !== undefined ? { nationalId: a.nationalId } : {}),
        ...(a.monthlyIncome !== undefined ? { monthlyIncome: a.monthlyIncome } : {}),
        ...(a.monthlyExpenses !== undefined ? { monthlyExpenses: a.monthlyExpenses } : {}),
      };
      await this.applications.change(organizationId, app.id, set, tx);
    });
    return this.details(organizationId, dto.applicationId, lang);
  }

  async details(
    organizationId: OrganizationId,
    id: string,
    lang: Language,
  ): Promise<ApplicationDetailsResponse> {
    const [app, checks, decisions, product] = await this.data.run(organizationId, async (tx) => {
      const found = await this.byIdOrFail(organizationId, id, tx);
      return [
        found,
        await this.checks.forApplication(organizationId, id, tx),
        await this.decisions.forApplication(organizationId, id, tx),
        await this.productOf(organizationId, found, tx),
      ] as const;
    });
    return this.views.details(app, checks, decisions, lang, product);
  }

  /** The application's product (its offer's full cost of credit is computed on its terms), if any. */
  productOf(organizationId: OrganizationId, app: LoanApplication, tx: Tx): Promise<LoanProduct | null> {
    return app.productCode === null
      ? Promise.resolve(null)
      : this.products.byCode(organizationId, app.productCode, tx);
  }

  async page(
    organizationId: OrganizationId,
    q: GetApplicationsRequest,
    lang: Language,
  ): Promise<ListValue<ApplicationResponse>> {
    const [rows, total] = await this.data.run(organizationId, (tx) =>
      this.applications.pageOf(
        organizationId,
        { status: q.Status, customerId: q.CustomerId },
        q.Offset ?? 0,
        q.Count ?? 20,
        tx,
      ),
    );
    return { items: rows.map((r) => this.views.application(r, lang)), total };
  }

  async history(
    organizationId: OrganizationId,
    q: ApplicationPageRequest,
    lang: Language,
  ): Promise<ListValue<StatusChangeResponse>> {
    const [rows, total] = await this.data.run(organizationId, async (tx) => {
      await this.byIdOrFail(organizationId, q.ApplicationId, tx);
      return this.statusHistory.pageOf(organizationId, q.ApplicationId, q.Offset ?? 0, q.Count ?? 20, tx);
    });
    return { items: rows.map((r) => this.views.statusChange(r, lang)), total };
  }

  /** The workflow as a dictionary: every status, its name and the moves out of it. */
  statuses(lang: Language): ListValue<ApplicationStatusResponse> {
    const items = APPLICATION_STATUSES.map((code) => ({
      code,
      name: this.texts.status(code, lang),
      terminal: TERMINAL_STATUSES.includes(code),
      transitions: this.views.moves(code, lang),
    }));
    return { items, total: items.length };
  }

  decisionReasons(lang: Language): ListValue<DecisionReasonResponse> {
    const items = DECISION_REASONS.map((code) => ({
      code,
      text: this.texts.name('decisionReasons', code, lang),
    }));
    return { items, total: items.length };
  }

  async byIdOrFail(organizationId: OrganizationId, id: string, tx: Tx): Promise<LoanApplication> {
    const app = await this.applications.byId(organizationId, id, tx);
    if (!app) throw applicationError(ApplicationError.NOT_FOUND, { applicationId: id });
    return app;
  }

  /** 404 for an unknown customer; 409 CUSTOMER_NOT_IN_GOOD_STANDING for one who may not apply. */
  private async customerMayApply(
    organizationId: OrganizationId,
    customerId: string,
    lang: Language,
    tx: Tx,
  ): Promise<void> {
    if (!(await this.standing.assertMay(organizationId, customerId, 'CreateApplication', [], lang, tx)))
      throw applicationError(ApplicationError.CUSTOMER_NOT_FOUND, { customerId });
  }
}
