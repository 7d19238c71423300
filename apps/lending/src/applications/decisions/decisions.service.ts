import { Injectable } from '@nestjs/common';
import type { ListValue } from '@platform/envelope';
import { RequestValidationError, type RawFieldError } from '@platform/envelope';
import type { Language } from '@platform/i18n';
import type { OrganizationId } from '@platform/tenancy';
import { TenantData } from '../../tenancy/tenant-data';
import { ApplicationViews } from '../application-views';
import { ApplicationsService } from '../applications.service';
import type { ApplicationDetailsResponse } from '../dto/application.response';
import type { MakeDecisionRequest } from '../dto/decision.request';
import type { DecisionResponse } from '../dto/decision.response';
import type { ApplicationStatus } from '../workflow/application-workflow';
import type { MoveDecision } from '../workflow/application-events';
import { ApplicationWorkflowService } from '../workflow/application-workflow.service';
import { ApplicationDecisionsRepository } from './application-decisions.repository';
import type { DecisionOutcome } from './decision-reasons';

const TARGET: Record<DecisionOutcome, ApplicationStatus> = {
  approve: 'approved',
  decline: 'declined',
  counter_offer: 'counter_offered',
};

/** What each outcome must or must not carry, as field errors (400 VALIDATION_FAILED). */
function shapeProblems(dto: MakeDecisionRequest): RawFieldError[] {
  const problems: RawFieldError[] = [];
  const needsReason = dto.outcome === 'decline' || dto.outcome === 'counter_offer';
  if (needsReason && !dto.reasons?.length)
    problems.push({ field: 'reasons', rule: 'arrayNotEmpty', args: { property: 'reasons' } });
  if (dto.outcome === 'counter_offer' && !dto.offer)
    problems.push({ field: 'offer', rule: 'isDefined', args: { property: 'offer' } });
  if (dto.outcome === 'decline' && dto.offer)
    problems.push({ field: 'offer', rule: 'whitelistValidation', args: { property: 'offer' } });
  return problems;
}

/** An offer of a row that has its request (every application since issue 12), for the move's event. */
function offered(
  offer: { amount: number | null; termMonths: number | null; annualRateBps: number | null } | null,
): MoveDecision['offer'] {
  if (!offer || offer.amount === null || offer.termMonths === null) return null;
  return { amount: offer.amount, termMonths: offer.termMonths, annualRateBps: offer.annualRateBps };
}

/**
 * Underwriting decisions by a person (MakeDecision, on an application under review): the move to
 * approved / declined / counter_offered and the decision row, in one transaction under the
 * application's lock. The rules' own decisions are written by the check runner.
 */
@Injectable()
export class DecisionsService {
  constructor(
    private readonly data: TenantData,
    private readonly decisions: ApplicationDecisionsRepository,
    private readonly workflow: ApplicationWorkflowService,
    private readonly reader: ApplicationsService,
    private readonly views: ApplicationViews,
  ) {}

  async decide(
    organizationId: OrganizationId,
    keyId: string,
    dto: MakeDecisionRequest,
    lang: Language,
  ): Promise<ApplicationDetailsResponse> {
    const problems = shapeProblems(dto);
    if (problems.length) throw new RequestValidationError(problems);
    const outcome = dto.outcome as DecisionOutcome;
    await this.data.run(organizationId, async (tx) => {
      const app = await this.workflow.lockOrFail(organizationId, dto.applicationId, tx);
      const reasons = dto.reasons?.length ? dto.reasons : ['REVIEWED_BY_UNDERWRITER'];
      // An approval without an offer grants the request as asked; a decline offers nothing.
      const offer =
        outcome === 'decline'
          ? null
          : (dto.offer ?? { amount: app.amount, termMonths: app.termMonths, annualRateBps: null });
      await this.workflow.move(
        organizationId,
        app,
        {
          to: TARGET[outcome],
          action: 'MakeDecision',
          by: { actor: 'key', keyId },
          reason: reasons.join(', '),
          decision: { reasons, offer: offered(offer) },
        },
        lang,
        tx,
      );
      await this.decisions.add(
        organizationId,
        {
          applicationId: app.id,
          outcome,
          decidedBy: 'person',
          keyId,
          reasons,
          note: dto.note ?? null,
          offeredAmount: offer?.amount ?? null,
          offeredCurrency: offer ? app.currency : null,
          offeredTermMonths: offer?.termMonths ?? null,
          offeredRateBps: offer?.annualRateBps ?? null,
        },
        tx,
      );
    });
    return this.reader.details(organizationId, dto.applicationId, lang);
  }

  async list(
    organizationId: OrganizationId,
    applicationId: string,
    lang: Language,
  ): Promise<ListValue<DecisionResponse>> {
    const [rows, product] = await this.data.run(organizationId, async (tx) => {
      const app = await this.reader.byIdOrFail(organizationId, applicationId, tx);
      return [
        await this.decisions.forApplication(organizationId, applicationId, tx),
        await this.reader.productOf(organizationId, app, tx),
      ] as const;
    });
    return { items: rows.map((d) => this.views.decision(d, lang, product)), total: rows.length };
  }
}
