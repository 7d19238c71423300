import { LendingApi } from '../../common/lending-api';
import { Body, Controller, Get, HttpCode, Post, Query } from '@nestjs/common';
import { ApiOperation } from '@nestjs/swagger';
import { ApiReasons } from '@platform/api-docs';
import { CurrentPrincipal } from '@platform/auth';
import { ApiEnvelope, list } from '@platform/envelope';
import type { Language } from '@platform/i18n';
import { LendingAccess, type PartnerPrincipal } from '../../tenancy/scopes';
import { ApplicationError as E } from '../applications.errors';
import { ApplicationRefRequest } from '../dto/application.request';
import { ApplicationDetailsResponse } from '../dto/application.response';
import { RunCheckRequest } from '../dto/check.request';
import { ExternalCallResponse } from '../dto/external-call.response';
import { GetExternalCallsRequest } from '../dto/get-applications.request';
import { ExternalCallsService } from '../external-calls/external-calls.service';
import { RequestLanguage } from '../../common/lending-api';
import { CheckRunnerService } from './check-runner.service';
import type { CheckStep } from './check-steps';

/** The check steps and the log of the external calls they make. */
@LendingApi('Applications')
@Controller('Applications')
export class ApplicationChecksController {
  constructor(
    private readonly runner: CheckRunnerService,
    private readonly calls: ExternalCallsService,
  ) {}

  @Post('RunChecks')
  @HttpCode(200)
  @LendingAccess.Authenticated('partner-key')
  @LendingAccess.RequireScopes('applications:write')
  @ApiOperation({
    summary: 'Run the five checks of a submitted application, then the decision rules',
    description:
      'Identity verification, credit bureau report, AML screening, scoring and affordability, in that order. The rules then approve, decline or leave the application under review for a person. In the test environment the providers are stubs whose answers the national id chooses (see the applications page).',
  })
  @ApiReasons(E.NOT_FOUND, E.TRANSITION_NOT_ALLOWED, E.CHECKS_RUNNING)
  @ApiEnvelope(ApplicationDetailsResponse)
  runChecks(
    @CurrentPrincipal() p: PartnerPrincipal,
    @Body() b: ApplicationRefRequest,
    @RequestLanguage() l: Language,
  ) {
    return this.runner.runChecks(p.ownerId, p.keyId, b.applicationId, l);
  }

  @Post('RunCheck')
  @HttpCode(200)
  @LendingAccess.Authenticated('partner-key')
  @LendingAccess.RequireScopes('applications:write')
  @ApiOperation({
    summary: 'Run one check step again after an error (timeout or provider failure)',
    description: 'Only while the application is under review; the decision stays with a person.',
  })
  @ApiReasons(E.NOT_FOUND, E.CHECK_NOT_RETRYABLE)
  @ApiEnvelope(ApplicationDetailsResponse)
  runCheck(
    @CurrentPrincipal() p: PartnerPrincipal,
    @Body() b: RunCheckRequest,
    @RequestLanguage() l: Language,
  ) {
    return this.runner.runCheck(p.ownerId, b.applicationId, b.step as CheckStep, l);
  }

  @Get('GetExternalCalls')
  @LendingAccess.Authenticated('partner-key')
  @LendingAccess.RequireScopes('applications:read')
  @ApiOperation({
    summary: 'The log of calls to external providers, oldest first',
    description:
      'Every call, stub or live, with its request and response bodies: secrets removed, identity numbers masked.',
  })
  @ApiReasons(E.NOT_FOUND)
  @ApiEnvelope(ExternalCallResponse, { list: true })
  async getExternalCalls(@CurrentPrincipal() p: PartnerPrincipal, @Query() q: GetExternalCallsRequest) {
    const { items, total } = await this.calls.page(p.ownerId, q);
    return list(items, total);
  }
}
