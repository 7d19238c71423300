import { LendingApi } from '../../common/lending-api';
import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { ApiOperation } from '@nestjs/swagger';
import { ApiReasons } from '@platform/api-docs';
import { CurrentPrincipal } from '@platform/auth';
import { ApiEnvelope } from '@platform/envelope';
import type { Language } from '@platform/i18n';
import { LendingAccess, type PartnerPrincipal } from '../../tenancy/scopes';
import { ApplicationError as E } from '../applications.errors';
import { CustomersError } from '../../customers/customers.errors';
import { ApplicationActionRequest } from '../dto/application.request';
import { ApplicationDetailsResponse } from '../dto/application.response';
import { RequestLanguage } from '../../common/lending-api';
import { ApplicationActionsService } from './application-actions.service';

/**
 * The named moves of the workflow (docs/lending/applications.md). A move the workflow does not allow
 * from the current status is 409 APPLICATION_TRANSITION_NOT_ALLOWED naming both statuses.
 */
@LendingApi('Applications')
@Controller('Applications')
export class ApplicationMovesController {
  constructor(private readonly actions: ApplicationActionsService) {}

  @Post('SubmitApplication')
  @HttpCode(200)
  @LendingAccess.Authenticated('partner-key')
  @LendingAccess.RequireScopes('applications:write')
  @ApiOperation({ summary: 'Submit a draft application: draft -> submitted' })
  @ApiReasons(
    E.NOT_FOUND,
    E.TRANSITION_NOT_ALLOWED,
    E.INCOMPLETE,
    CustomersError.NOT_IN_GOOD_STANDING,
    CustomersError.CONSENT_REQUIRED,
  )
  @ApiEnvelope(ApplicationDetailsResponse)
  submit(
    @CurrentPrincipal() p: PartnerPrincipal,
    @Body() b: ApplicationActionRequest,
    @RequestLanguage() l: Language,
  ) {
    return this.actions.act(p.ownerId, p.keyId, 'SubmitApplication', b, l);
  }

  @Post('CancelApplication')
  @HttpCode(200)
  @LendingAccess.Authenticated('partner-key')
  @LendingAccess.RequireScopes('applications:write')
  @ApiOperation({ summary: 'Cancel an application before its checks: draft or submitted -> cancelled' })
  @ApiReasons(E.NOT_FOUND, E.TRANSITION_NOT_ALLOWED)
  @ApiEnvelope(ApplicationDetailsResponse)
  cancel(
    @CurrentPrincipal() p: PartnerPrincipal,
    @Body() b: ApplicationActionRequest,
    @RequestLanguage() l: Language,
  ) {
    return this.actions.act(p.ownerId, p.keyId, 'CancelApplication', b, l);
  }

  @Post('WithdrawApplication')
  @HttpCode(200)
  @LendingAccess.Authenticated('partner-key')
  @LendingAccess.RequireScopes('applications:write')
  @ApiOperation({
    summary:
      'The customer withdraws the application: submitted, checks in progress or under review -> withdrawn',
  })
  @ApiReasons(E.NOT_FOUND, E.TRANSITION_NOT_ALLOWED)
  @ApiEnvelope(ApplicationDetailsResponse)
  withdraw(
    @CurrentPrincipal() p: PartnerPrincipal,
    @Body() b: ApplicationActionRequest,
    @RequestLanguage() l: Language,
  ) {
    return this.actions.act(p.ownerId, p.keyId, 'WithdrawApplication', b, l);
  }

  @Post('AcceptOffer')
  @HttpCode(200)
  @LendingAccess.Authenticated('partner-key')
  @LendingAccess.RequireScopes('applications:write')
  @ApiOperation({ summary: 'The customer accepts the approval or the counter-offer -> accepted' })
  @ApiReasons(
    E.NOT_FOUND,
    E.TRANSITION_NOT_ALLOWED,
    CustomersError.NOT_IN_GOOD_STANDING,
    CustomersError.CONSENT_REQUIRED,
  )
  @ApiEnvelope(ApplicationDetailsResponse)
  accept(
    @CurrentPrincipal() p: PartnerPrincipal,
    @Body() b: ApplicationActionRequest,
    @RequestLanguage() l: Language,
  ) {
    return this.actions.act(p.ownerId, p.keyId, 'AcceptOffer', b, l);
  }

  @Post('RejectOffer')
  @HttpCode(200)
  @LendingAccess.Authenticated('partner-key')
  @LendingAccess.RequireScopes('applications:write')
  @ApiOperation({ summary: 'The customer rejects the approval or the counter-offer -> rejected_by_customer' })
  @ApiReasons(E.NOT_FOUND, E.TRANSITION_NOT_ALLOWED)
  @ApiEnvelope(ApplicationDetailsResponse)
  reject(
    @CurrentPrincipal() p: PartnerPrincipal,
    @Body() b: ApplicationActionRequest,
    @RequestLanguage() l: Language,
  ) {
    return this.actions.act(p.ownerId, p.keyId, 'RejectOffer', b, l);
  }

  @Post('ExpireApplication')
  @HttpCode(200)
  @LendingAccess.Authenticated('partner-key')
  @LendingAccess.RequireScopes('applications:write')
  @ApiOperation({ summary: 'An approval or counter-offer left unanswered lapses -> expired' })
  @ApiReasons(E.NOT_FOUND, E.TRANSITION_NOT_ALLOWED)
  @ApiEnvelope(ApplicationDetailsResponse)
  expire(
    @CurrentPrincipal() p: PartnerPrincipal,
    @Body() b: ApplicationActionRequest,
    @RequestLanguage() l: Language,
  ) {
    return this.actions.act(p.ownerId, p.keyId, 'ExpireApplication', b, l);
  }
}
