import { LendingApi } from '../common/lending-api';
import { Body, Controller, Get, HttpCode, Post, Query } from '@nestjs/common';
import { ApiOperation } from '@nestjs/swagger';
import { ApiReasons } from '@platform/api-docs';
import { CurrentPrincipal } from '@platform/auth';
import { ApiEnvelope, list } from '@platform/envelope';
import type { Language } from '@platform/i18n';
import { LendingAccess, type PartnerPrincipal } from '../tenancy/scopes';
import { ApplicationError as E } from './applications.errors';
import { CustomersError } from '../customers/customers.errors';
import { ApplicationsService } from './applications.service';
import { CreateApplicationRequest, UpdateApplicationRequest } from './dto/application.request';
import { ApplicationDetailsResponse, ApplicationResponse } from './dto/application.response';
import {
  ApplicationIdQuery,
  ApplicationPageRequest,
  GetApplicationsRequest,
} from './dto/get-applications.request';
import { StatusChangeResponse } from './dto/history.response';
import { ApplicationStatusResponse } from './dto/statuses.response';
import { RequestLanguage } from '../common/lending-api';

/** Applications: create, read, list, change a draft; the workflow dictionary and the history. */
@LendingApi('Applications')
@Controller('Applications')
export class ApplicationsController {
  constructor(private readonly applications: ApplicationsService) {}

  @Get('GetApplications')
  @LendingAccess.Authenticated('partner-key')
  @LendingAccess.RequireScopes('applications:read')
  @ApiOperation({
    summary: 'Paged list of applications with the total count',
    description: 'Newest first. `Status` and `CustomerId` narrow the list; `total` counts every match.',
  })
  @ApiEnvelope(ApplicationResponse, { list: true })
  async getApplications(
    @CurrentPrincipal() p: PartnerPrincipal,
    @Query() q: GetApplicationsRequest,
    @RequestLanguage() lang: Language,
  ) {
    const { items, total } = await this.applications.page(p.ownerId, q, lang);
    return list(items, total);
  }

  @Get('GetApplication')
  @LendingAccess.Authenticated('partner-key')
  @LendingAccess.RequireScopes('applications:read')
  @ApiOperation({ summary: 'One application with its check steps, latest decision and allowed moves' })
  @ApiReasons(E.NOT_FOUND)
  @ApiEnvelope(ApplicationDetailsResponse)
  getApplication(
    @CurrentPrincipal() p: PartnerPrincipal,
    @Query() q: ApplicationIdQuery,
    @RequestLanguage() lang: Language,
  ) {
    return this.applications.details(p.ownerId, q.ApplicationId, lang);
  }

  @Post('CreateApplication')
  @LendingAccess.Authenticated('partner-key')
  @LendingAccess.RequireScopes('applications:write')
  @ApiOperation({
    summary: 'Create an application (a draft) for a customer and a requested loan',
    description: "The customer must be one of the organization's. The application starts as `draft`.",
  })
  @ApiReasons(E.CUSTOMER_NOT_FOUND, CustomersError.NOT_IN_GOOD_STANDING)
  @ApiEnvelope(ApplicationDetailsResponse, { status: 201 })
  createApplication(
    @CurrentPrincipal() p: PartnerPrincipal,
    @Body() body: CreateApplicationRequest,
    @RequestLanguage() lang: Language,
  ) {
    return this.applications.create(p.ownerId, p.keyId, body, lang);
  }

  @Post('UpdateApplication')
  @HttpCode(200)
  @LendingAccess.Authenticated('partner-key')
  @LendingAccess.RequireScopes('applications:write')
  @ApiOperation({
    summary: 'Change a draft application',
    description: 'Only the fields sent change. After SubmitApplication the application can no longer change.',
  })
  @ApiReasons(E.NOT_FOUND, E.CUSTOMER_NOT_FOUND, E.NOT_EDITABLE, CustomersError.NOT_IN_GOOD_STANDING)
  @ApiEnvelope(ApplicationDetailsResponse)
  updateApplication(
    @CurrentPrincipal() p: PartnerPrincipal,
    @Body() body: UpdateApplicationRequest,
    @RequestLanguage() lang: Language,
  ) {
    return this.applications.update(p.ownerId, body, lang);
  }

  @Get('GetApplicationStatuses')
  @LendingAccess.Authenticated('partner-key')
  @LendingAccess.RequireScopes('applications:read')
  @ApiOperation({
    summary: 'The application statuses with their names and allowed transitions',
    description: "Names in the request's language; each transition names the action that takes it.",
  })
  @ApiEnvelope(ApplicationStatusResponse, { list: true })
  getApplicationStatuses(@RequestLanguage() lang: Language) {
    const { items, total } = this.applications.statuses(lang);
    return list(items, total);
  }

  @Get('GetApplicationHistory')
  @LendingAccess.Authenticated('partner-key')
  @LendingAccess.RequireScopes('applications:read')
  @ApiOperation({
    summary: "An application's status history, oldest first",
    description: 'Every move with the key that made it, when, and its reason. The history is append-only.',
  })
  @ApiReasons(E.NOT_FOUND)
  @ApiEnvelope(StatusChangeResponse, { list: true })
  async getApplicationHistory(
    @CurrentPrincipal() p: PartnerPrincipal,
    @Query() q: ApplicationPageRequest,
    @RequestLanguage() lang: Language,
  ) {
    const { items, total } = await this.applications.history(p.ownerId, q, lang);
    return list(items, total);
  }
}
