import { Body, Controller, Get, HttpCode, Post, Query } from '@nestjs/common';
import { ApiOperation } from '@nestjs/swagger';
import { ApiReasons } from '@platform/api-docs';
import { CurrentPrincipal } from '@platform/auth';
import { ApiEnvelope, list } from '@platform/envelope';
import type { Language } from '@platform/i18n';
import { LendingApi, RequestLanguage } from '../common/lending-api';
import { LendingAccess, type PartnerPrincipal } from '../tenancy/scopes';
import { GetLoansRequest, LoanIdQuery } from './dto/get-loans.request';
import { LoanActionRequest } from './dto/loan.request';
import { LoanResponse, LoanStatusResponse } from './dto/loan.response';
import { LoanError as E } from './loans.errors';
import { LoansService } from './loans.service';

/** Loan contracts: read, listed, cancelled before disbursement (CreateLoan is origination/'s). */
@LendingApi('Loans')
@Controller('Loans')
export class LoansController {
  constructor(private readonly loans: LoansService) {}

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
