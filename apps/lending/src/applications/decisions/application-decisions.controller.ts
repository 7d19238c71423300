import { LendingApi } from '../../common/lending-api';
import { Body, Controller, Get, HttpCode, Post, Query } from '@nestjs/common';
import { ApiOperation } from '@nestjs/swagger';
import { ApiReasons } from '@platform/api-docs';
import { CurrentPrincipal } from '@platform/auth';
import { ApiEnvelope, list } from '@platform/envelope';
import type { Language } from '@platform/i18n';
import { LendingAccess, type PartnerPrincipal } from '../../tenancy/scopes';
import { ApplicationError as E } from '../applications.errors';
import { CustomersError } from '../../customers/customers.errors';
import { ApplicationsService } from '../applications.service';
import { ApplicationDetailsResponse } from '../dto/application.response';
import { MakeDecisionRequest } from '../dto/decision.request';
import { DecisionReasonResponse, DecisionResponse } from '../dto/decision.response';
import { ApplicationIdQuery } from '../dto/get-applications.request';
import { RequestLanguage } from '../../common/lending-api';
import { DecisionsService } from './decisions.service';

/** Underwriting decisions: a person's (MakeDecision) and the rules' (after RunChecks). */
@LendingApi('Applications')
@Controller('Applications')
export class ApplicationDecisionsController {
  constructor(
    private readonly decisions: DecisionsService,
    private readonly applications: ApplicationsService,
  ) {}

  @Post('MakeDecision')
  @HttpCode(200)
  @LendingAccess.Authenticated('partner-key')
  @LendingAccess.RequireScopes('applications:write')
  @ApiOperation({
    summary: 'Decide on an application under review: approve, decline or counter-offer',
    description:
      'A decline or a counter-offer names at least one reason; a counter-offer carries its offer. The deciding key is recorded.',
  })
  @ApiReasons(
    E.NOT_FOUND,
    E.TRANSITION_NOT_ALLOWED,
    CustomersError.NOT_IN_GOOD_STANDING,
    CustomersError.CONSENT_REQUIRED,
  )
  @ApiEnvelope(ApplicationDetailsResponse)
  makeDecision(
    @CurrentPrincipal() p: PartnerPrincipal,
    @Body() b: MakeDecisionRequest,
    @RequestLanguage() l: Language,
  ) {
    return this.decisions.decide(p.ownerId, p.keyId, b, l);
  }

  @Get('GetDecisions')
  @LendingAccess.Authenticated('partner-key')
  @LendingAccess.RequireScopes('applications:read')
  @ApiOperation({ summary: "An application's decisions, oldest first, by a person or by the rules" })
  @ApiReasons(E.NOT_FOUND)
  @ApiEnvelope(DecisionResponse, { list: true })
  async getDecisions(
    @CurrentPrincipal() p: PartnerPrincipal,
    @Query() q: ApplicationIdQuery,
    @RequestLanguage() lang: Language,
  ) {
    const { items, total } = await this.decisions.list(p.ownerId, q.ApplicationId, lang);
    return list(items, total);
  }

  @Get('GetDecisionReasons')
  @LendingAccess.Authenticated('partner-key')
  @LendingAccess.RequireScopes('applications:read')
  @ApiOperation({ summary: "The decision reason codes with their texts in the request's language" })
  @ApiEnvelope(DecisionReasonResponse, { list: true })
  getDecisionReasons(@RequestLanguage() lang: Language) {
    const { items, total } = this.applications.decisionReasons(lang);
    return list(items, total);
  }
}
