import { Body, Controller, Get, HttpCode, Post, Query } from '@nestjs/common';
import { ApiOperation } from '@nestjs/swagger';
import { ApiReasons } from '@platform/api-docs';
import { CurrentPrincipal } from '@platform/auth';
import { ApiEnvelope, list } from '@platform/envelope';
import type { Language } from '@platform/i18n';
import { LendingApi, RequestLanguage } from '../common/lending-api';
import { LendingAccess, type PartnerPrincipal } from '../tenancy/scopes';
import { GetLoansRequest, LoanIdQuery } from './dto/get-loans.request';
import { CreateLoanRequest, LoanActionRequest } from './dto/loan.request';
import { LoanResponse, LoanStatusResponse } from './dto/loan.response';
import { LoanError as E } from './loans.errors';
import { LoansService } from './loans.service';

/** Loan contracts: made from an approved application, read, listed, cancelled before disbursement. */
@LendingApi('Loans')
@Controller('Loans')
export class LoansController {
  constructor(private readonly loans: LoansService) {}

  @Post('CreateLoan')
  @LendingAccess.Authenticated('partner-key')
  @LendingAccess.RequireScopes('loans:write')
  @ApiOperation({
    summary: 'Make a loan contract from an approved application on a product',
    description:
      "The application must be approved (or its offer accepted); amount and term default to what was approved and must fit the product's limits. The loan copies the product's terms and starts as `created`; nothing is paid out until DisburseLoan.",
  })
  @ApiReasons(
    E.APPLICATION_NOT_FOUND,
    E.PRODUCT_NOT_FOUND,
    E.APPLICATION_NOT_APPROVED,
    E.PRODUCT_INACTIVE,
    E.APPLICATION_HAS_LOAN,
    E.CURRENCY_MISMATCH,
    E.AMOUNT_ABOVE_APPROVED,
    E.AMOUNT_OUT_OF_RANGE,
    E.TERM_REQUIRED,
    E.TERM_OUT_OF_RANGE,
  )
  @ApiEnvelope(LoanResponse, { status: 201 })
  createLoan(
    @CurrentPrincipal() p: PartnerPrincipal,
    @Body() body: CreateLoanRequest,
    @RequestLanguage() lang: Language,
  ) {
    return this.loans.create(p.ownerId, p.keyId, body, lang);
  }

  @Post('CancelLoan')
  @HttpCode(200)
  @LendingAccess.Authenticated('partner-key')
  @LendingAccess.RequireScopes('loans:write')
  @ApiOperation({ summary: 'Cancel a loan before it is paid out: created -> cancelled' })
  @ApiReasons(E.NOT_FOUND, E.TRANSITION_NOT_ALLOWED)
  @ApiEnvelope(LoanResponse)
  cancelLoan(
    @CurrentPrincipal() p: PartnerPrincipal,
    @Body() body: LoanActionRequest,
    @RequestLanguage() lang: Language,
  ) {
    return this.loans.cancel(p.ownerId, body, lang);
  }

  @Get('GetLoan')
  @LendingAccess.Authenticated('partner-key')
  @LendingAccess.RequireScopes('loans:read')
  @ApiOperation({ summary: 'One loan: its terms, status, principal owed, next due date and days past due' })
  @ApiReasons(E.NOT_FOUND)
  @ApiEnvelope(LoanResponse)
  getLoan(
    @CurrentPrincipal() p: PartnerPrincipal,
    @Query() q: LoanIdQuery,
    @RequestLanguage() lang: Language,
  ) {
    return this.loans.details(p.ownerId, q.LoanId, lang);
  }

  @Get('GetLoans')
  @LendingAccess.Authenticated('partner-key')
  @LendingAccess.RequireScopes('loans:read')
  @ApiOperation({
    summary: 'Paged list of loans with the total count',
    description: 'Newest first. `Status`, `CustomerId` and `ApplicationId` narrow the list.',
  })
  @ApiEnvelope(LoanResponse, { list: true })
  async getLoans(
    @CurrentPrincipal() p: PartnerPrincipal,
    @Query() q: GetLoansRequest,
    @RequestLanguage() lang: Language,
  ) {
    const { items, total } = await this.loans.page(p.ownerId, q, lang);
    return list(items, total);
  }

  @Get('GetLoanStatuses')
  @LendingAccess.Authenticated('partner-key')
  @LendingAccess.RequireScopes('loans:read')
  @ApiOperation({
    summary: 'The loan statuses with their names and allowed transitions',
    description: "Names in the request's language; each transition names the action that takes it.",
  })
  @ApiEnvelope(LoanStatusResponse, { list: true })
  getLoanStatuses(@RequestLanguage() lang: Language) {
    const { items, total } = this.loans.statuses(lang);
    return list(items, total);
  }
}
