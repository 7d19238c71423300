import { LendingApi } from '../common/lending-api';
import { Body, Controller, Get, HttpCode, Post, Query } from '@nestjs/common';
import { ApiOperation } from '@nestjs/swagger';
import { ApiReasons } from '@platform/api-docs';
import { CurrentPrincipal } from '@platform/auth';
import { ApiEnvelope, list } from '@platform/envelope';
import type { Language } from '@platform/i18n';
import { LendingAccess, type PartnerPrincipal } from '../tenancy/scopes';
import { CustomersError } from './customers.errors';
import { CustomersService } from './customers.service';
import {
  ChangeCustomerStatusRequest,
  CreateCustomerRequest,
  CustomerIdQuery,
  GetCustomersRequest,
  UpdateCustomerRequest,
} from './dto/customer.request';
import { CustomerResponse, CustomerStatusResponse, CustomerSummaryResponse } from './dto/customer.response';
import { RequestLanguage } from '../common/lending-api';

@LendingApi('Customers')
@Controller('Customers')
export class CustomersController {
  constructor(private readonly customers: CustomersService) {}

  @Post('CreateCustomer')
  @LendingAccess.Authenticated('partner-key')
  @LendingAccess.RequireScopes('customers:write')
  @ApiOperation({ summary: 'Create an individual or a business customer (status `active`)' })
  @ApiReasons(
    CustomersError.EXTERNAL_ID_TAKEN,
    CustomersError.PROFILE_KIND_MISMATCH,
    CustomersError.DATE_OUT_OF_RANGE,
  )
  @ApiEnvelope(CustomerResponse, { status: 201 })
  create(
    @CurrentPrincipal() p: PartnerPrincipal,
    @RequestLanguage() lang: Language,
    @Body() body: CreateCustomerRequest,
  ) {
    return this.customers.create(p.ownerId, lang, body);
  }

  @Post('UpdateCustomer')
  @HttpCode(200)
  @LendingAccess.Authenticated('partner-key')
  @LendingAccess.RequireScopes('customers:write')
  @ApiOperation({ summary: "Change a customer's profile; only the fields sent change, `null` clears one" })
  @ApiReasons(
    CustomersError.NOT_FOUND,
    CustomersError.CLOSED,
    CustomersError.VERSION_CONFLICT,
    CustomersError.EXTERNAL_ID_TAKEN,
    CustomersError.PROFILE_KIND_MISMATCH,
    CustomersError.DATE_OUT_OF_RANGE,
  )
  @ApiEnvelope(CustomerResponse)
  update(
    @CurrentPrincipal() p: PartnerPrincipal,
    @RequestLanguage() lang: Language,
    @Body() body: UpdateCustomerRequest,
  ) {
    return this.customers.update(p.ownerId, lang, body);
  }

  @Post('ChangeCustomerStatus')
  @HttpCode(200)
  @LendingAccess.Authenticated('partner-key')
  @LendingAccess.RequireScopes('customers:write')
  @ApiOperation({ summary: 'Block, unblock or close a customer (see `GetCustomerStatuses`)' })
  @ApiReasons(CustomersError.NOT_FOUND, CustomersError.VERSION_CONFLICT, CustomersError.STATUS_TRANSITION)
  @ApiEnvelope(CustomerResponse)
  changeStatus(
    @CurrentPrincipal() p: PartnerPrincipal,
    @RequestLanguage() lang: Language,
    @Body() body: ChangeCustomerStatusRequest,
  ) {
    return this.customers.changeStatus(p.ownerId, lang, body);
  }

  @Get('GetCustomer')
  @LendingAccess.Authenticated('partner-key')
  @LendingAccess.RequireScopes('customers:read')
  @ApiOperation({ summary: 'One customer with its identifiers and bank accounts' })
  @ApiReasons(CustomersError.NOT_FOUND)
  @ApiEnvelope(CustomerResponse)
  get(
    @CurrentPrincipal() p: PartnerPrincipal,
    @RequestLanguage() lang: Language,
    @Query() q: CustomerIdQuery,
  ) {
    return this.customers.get(p.ownerId, lang, q.CustomerId);
  }

  @Get('GetCustomers')
  @LendingAccess.Authenticated('partner-key')
  @LendingAccess.RequireScopes('customers:read')
  @ApiOperation({ summary: 'Search customers, newest first, paged with the total count' })
  @ApiEnvelope(CustomerSummaryResponse, { list: true })
  async page(
    @CurrentPrincipal() p: PartnerPrincipal,
    @RequestLanguage() lang: Language,
    @Query() q: GetCustomersRequest,
  ) {
    const { items, total } = await this.customers.page(p.ownerId, lang, q);
    return list(items, total);
  }

  @Get('GetCustomerStatuses')
  @LendingAccess.Authenticated('partner-key')
  @LendingAccess.RequireScopes('customers:read')
  @ApiOperation({
    summary: 'Customer statuses with their names and allowed transitions',
    description:
      'Each status also lists the operations it allows (`allows`): the table every operation that starts new business or moves money out checks.',
  })
  @ApiEnvelope(CustomerStatusResponse, { list: true })
  statuses(@RequestLanguage() lang: Language) {
    const items = this.customers.statuses(lang);
    return list(items, items.length);
  }
}
