import { Controller, Get, Query } from '@nestjs/common';
import { ApiOperation } from '@nestjs/swagger';
import { ApiReasons } from '@platform/api-docs';
import { CurrentPrincipal } from '@platform/auth';
import { ApiEnvelope, list } from '@platform/envelope';
import type { Language } from '@platform/i18n';
import { LendingApi, RequestLanguage } from '../common/lending-api';
import { LendingAccess, type PartnerPrincipal } from '../tenancy/scopes';
import { LoanScheduleResponse } from './dto/cost-of-credit.response';
import { LoanIdQuery, LoanPageRequest, LoanScheduleRequest } from './dto/get-loans.request';
import {
  LoanBalancesResponse,
  LoanTransactionResponse,
  ScheduleVersionResponse,
} from './dto/ledger.response';
import { LoanError as E } from './loans.errors';
import { LoanLedgerService } from './loan-ledger.service';

/** A loan's schedule, ledger transactions and balances. */
@LendingApi('Loans')
@Controller('Loans')
export class LoanLedgerController {
  constructor(private readonly ledger: LoanLedgerService) {}

  @Get('GetLoanSchedule')
  @LendingAccess.Authenticated('partner-key')
  @LendingAccess.RequireScopes('loans:read')
  @ApiOperation({
    summary: 'The schedule in force, or one of its earlier versions, with what was paid on each instalment',
    description:
      'Empty before the disbursement. Statuses as of today (UTC), names in the request’s language. With `Version`, that version’s instalments; those no longer in force are `superseded`. Beside the list, the full cost of credit and the APR of the schedule in force (docs/lending/loans.md, "Full cost of credit").',
  })
  @ApiReasons(E.NOT_FOUND, E.SCHEDULE_VERSION_NOT_FOUND)
  @ApiEnvelope(LoanScheduleResponse)
  getLoanSchedule(
    @CurrentPrincipal() p: PartnerPrincipal,
    @Query() q: LoanScheduleRequest,
    @RequestLanguage() lang: Language,
  ) {
    return this.ledger.schedule(p.ownerId, q.LoanId, q.Version, lang);
  }

  @Get('GetLoanScheduleVersions')
  @LendingAccess.Authenticated('partner-key')
  @LendingAccess.RequireScopes('loans:read')
  @ApiOperation({
    summary: 'The history of the loan’s schedule: one version per change, oldest first',
    description:
      'Version 1 is the disbursement’s schedule; every early repayment, restored schedule, restructuring and payment holiday adds one. Each names the transaction that made it.',
  })
  @ApiReasons(E.NOT_FOUND)
  @ApiEnvelope(ScheduleVersionResponse, { list: true })
  async getLoanScheduleVersions(
    @CurrentPrincipal() p: PartnerPrincipal,
    @Query() q: LoanIdQuery,
    @RequestLanguage() lang: Language,
  ) {
    const { items, total } = await this.ledger.scheduleVersions(p.ownerId, q.LoanId, lang);
    return list(items, total);
  }

  @Get('GetLoanTransactions')
  @LendingAccess.Authenticated('partner-key')
  @LendingAccess.RequireScopes('loans:read')
  @ApiOperation({
    summary: "The loan's ledger transactions with their balanced lines, oldest first",
    description: 'Each money operation is one transaction; its debits always equal its credits.',
  })
  @ApiReasons(E.NOT_FOUND)
  @ApiEnvelope(LoanTransactionResponse, { list: true })
  async getLoanTransactions(
    @CurrentPrincipal() p: PartnerPrincipal,
    @Query() q: LoanPageRequest,
    @RequestLanguage() lang: Language,
  ) {
    const { items, total } = await this.ledger.transactions(p.ownerId, q, lang);
    return list(items, total);
  }

  @Get('GetLoanBalances')
  @LendingAccess.Authenticated('partner-key')
  @LendingAccess.RequireScopes('loans:read')
  @ApiOperation({
    summary: "The loan's balances, derived from its ledger lines",
    description:
      'Principal, interest receivable and paid ahead, penalties, fees, overpayment, cash; every account.',
  })
  @ApiReasons(E.NOT_FOUND)
  @ApiEnvelope(LoanBalancesResponse)
  getLoanBalances(
    @CurrentPrincipal() p: PartnerPrincipal,
    @Query() q: LoanIdQuery,
    @RequestLanguage() lang: Language,
  ) {
    return this.ledger.balances(p.ownerId, q.LoanId, lang);
  }
}
