import { Injectable } from '@nestjs/common';
import type { Language } from '@platform/i18n';
import type { OrganizationId } from '@platform/tenancy';
import { TenantData } from '../../tenancy/tenant-data';
import type { LoanApplication } from '../application.entity';
import { ApplicationError, applicationError } from '../applications.errors';
import { ApplicationsService } from '../applications.service';
import type { ApplicationActionRequest } from '../dto/application.request';
import type { ApplicationDetailsResponse } from '../dto/application.response';
import type { ApplicationAction, ApplicationStatus } from './application-workflow';
import { ApplicationWorkflowService } from './application-workflow.service';

/** The simple named moves: one action, one target status (the table says from where). */
export const SIMPLE_MOVES = {
  SubmitApplication: 'submitted',
  CancelApplication: 'cancelled',
  WithdrawApplication: 'withdrawn',
  AcceptOffer: 'accepted',
  RejectOffer: 'rejected_by_customer',
  ExpireApplication: 'expired',
} as const satisfies Partial<Record<ApplicationAction, ApplicationStatus>>;
export type SimpleMove = keyof typeof SIMPLE_MOVES;

/** What a draft lacks to be submitted (only rows from before issue 12 can lack anything). */
export function missingForSubmission(app: LoanApplication): string[] {
  const required: [string, unknown][] = [
    ['customerId', app.customerId],
    ['product.productCode', app.productCode],
    ['product.amount', app.amount],
    ['product.currency', app.currency],
    ['product.termMonths', app.termMonths],
    ['channel', app.channel],
    ['applicant.nationalId', app.nationalId],
    ['applicant.monthlyIncome', app.monthlyIncome],
  ];
  return required.filter(([, v]) => v === null || v === undefined).map(([name]) => name);
}

@Injectable()
export class ApplicationActionsService {
  constructor(
    private readonly data: TenantData,
    private readonly workflow: ApplicationWorkflowService,
    private readonly applications: ApplicationsService,
  ) {}

  async act(
    organizationId: OrganizationId,
    keyId: string,
    action: SimpleMove,
    dto: ApplicationActionRequest,
    lang: Language,
  ): Promise<ApplicationDetailsResponse> {
    await this.data.run(organizationId, async (tx) => {
      const app = await this.workflow.lockOrFail(organizationId, dto.applicationId, tx);
      if (action === 'SubmitApplication' && app.status === 'draft') {
        const missing = missingForSubmission(app);
        if (missing.length)
          throw applicationError(ApplicationError.INCOMPLETE, { missing: missing.join(', ') }, { missing });
      }
      await this.workflow.move(
        organizationId,
        app,
        { to: SIMPLE_MOVES[action], action, by: { actor: 'key', keyId }, reason: dto.reason },
        lang,
        tx,
      );
    });
    return this.applications.details(organizationId, dto.applicationId, lang);
  }
}
