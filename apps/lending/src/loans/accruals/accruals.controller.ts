import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { ApiOperation } from '@nestjs/swagger';
import { ApiReasons } from '@platform/api-docs';
import { CurrentPrincipal } from '@platform/auth';
import { ApiEnvelope } from '@platform/envelope';
import { LendingApi } from '../../common/lending-api';
import { LendingAccess, type PartnerPrincipal } from '../../tenancy/scopes';
import { LoanError as E } from '../loans.errors';
import { AccrualRuns } from './accrual-runs.service';
import { AccrualRunResponse } from './dto/accrual-run.response';
import { RunAccrualsRequest } from './dto/run-accruals.request';

/** Runs the accruals job on request (tests, operations after an outage): docs/lending/loans.md, "Accruals". */
@LendingApi('Loans')
@Controller('Loans')
export class AccrualsController {
  constructor(private readonly runs: AccrualRuns) {}

  @Post('RunAccruals')
  @HttpCode(200)
  @LendingAccess.Authenticated('partner-key')
  @LendingAccess.RequireScopes('loans:write')
  @ApiOperation({
    summary: 'Run the daily accruals of the organization’s loans (or one) up to a date, now',
    description:
      'What the scheduled job does: each day before `asOf` gets its interest and penalty, each day’s start moves what fell due to overdue. A day is posted once whoever runs it, so a repeat posts nothing. Never after today. Switched off in production unless LENDING_ACCRUALS_ROUTE=on.',
  })
  @ApiReasons(E.NOT_FOUND, E.VALUE_DATE_OUT_OF_RANGE, E.ACCRUALS_ROUTE_DISABLED, E.MATH_OVERFLOW)
  @ApiEnvelope(AccrualRunResponse)
  runAccruals(@CurrentPrincipal() p: PartnerPrincipal, @Body() body: RunAccrualsRequest) {
    return this.runs.requested(p.ownerId, body);
  }
}
