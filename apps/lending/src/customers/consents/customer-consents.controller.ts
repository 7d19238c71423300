import { LendingApi } from '../../common/lending-api';
import { Body, Controller, Get, HttpCode, Post, Query } from '@nestjs/common';
import { ApiOperation } from '@nestjs/swagger';
import { ApiReasons } from '@platform/api-docs';
import { CurrentPrincipal } from '@platform/auth';
import { ApiEnvelope, list } from '@platform/envelope';
import type { Language } from '@platform/i18n';
import { LendingAccess, type PartnerPrincipal } from '../../tenancy/scopes';
import { CustomersError } from '../customers.errors';
import { ConsentHistoryQuery, GiveConsentRequest, WithdrawConsentRequest } from '../dto/consent.request';
import { ConsentEventResponse } from '../dto/consent.response';
import { CustomerIdQuery } from '../dto/customer.request';
import { RequestLanguage } from '../../common/lending-api';
import { ConsentsService } from './consents.service';

@LendingApi('Customers')
@Controller('Customers')
export class CustomerConsentsController {
  constructor(private readonly consents: ConsentsService) {}

  @Post('GiveConsent')
  @LendingAccess.Authenticated('partner-key')
  @LendingAccess.RequireScopes('customers:write')
  @ApiOperation({ summary: 'Record that the customer gave a consent, to a version of its text' })
  @ApiReasons(CustomersError.NOT_FOUND, CustomersError.CLOSED, CustomersError.CONSENT_ALREADY_GIVEN)
  @ApiEnvelope(ConsentEventResponse, { status: 201 })
  give(
    @CurrentPrincipal() p: PartnerPrincipal,
    @RequestLanguage() lang: Language,
    @Body() body: GiveConsentRequest,
  ) {
    return this.consents.give(p.ownerId, lang, body);
  }

  @Post('WithdrawConsent')
  @HttpCode(200)
  @LendingAccess.Authenticated('partner-key')
  @LendingAccess.RequireScopes('customers:write')
  @ApiOperation({ summary: 'Record that the customer withdrew a consent (also for a closed customer)' })
  @ApiReasons(CustomersError.NOT_FOUND, CustomersError.CONSENT_NOT_GIVEN)
  @ApiEnvelope(ConsentEventResponse)
  withdraw(
    @CurrentPrincipal() p: PartnerPrincipal,
    @RequestLanguage() lang: Language,
    @Body() body: WithdrawConsentRequest,
  ) {
    return this.consents.withdraw(p.ownerId, lang, body);
  }

  @Get('GetConsents')
  @LendingAccess.Authenticated('partner-key')
  @LendingAccess.RequireScopes('customers:read')
  @ApiOperation({ summary: "Where each of the customer's consents stands: its latest event per type" })
  @ApiReasons(CustomersError.NOT_FOUND)
  @ApiEnvelope(ConsentEventResponse, { list: true })
  async current(
    @CurrentPrincipal() p: PartnerPrincipal,
    @RequestLanguage() lang: Language,
    @Query() q: CustomerIdQuery,
  ) {
    const { items, total } = await this.consents.current(p.ownerId, lang, q.CustomerId);
    return list(items, total);
  }

  @Get('GetConsentHistory')
  @LendingAccess.Authenticated('partner-key')
  @LendingAccess.RequireScopes('customers:read')
  @ApiOperation({ summary: "The customer's consent events, newest first, paged with the total count" })
  @ApiReasons(CustomersError.NOT_FOUND)
  @ApiEnvelope(ConsentEventResponse, { list: true })
  async history(
    @CurrentPrincipal() p: PartnerPrincipal,
    @RequestLanguage() lang: Language,
    @Query() q: ConsentHistoryQuery,
  ) {
    const { items, total } = await this.consents.history(p.ownerId, lang, q);
    return list(items, total);
  }
}
