import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { ApiOperation } from '@nestjs/swagger';
import { ApiReasons } from '@platform/api-docs';
import { CurrentPrincipal } from '@platform/auth';
import { ApiEnvelope } from '@platform/envelope';
import type { Language } from '@platform/i18n';
import {
  Idempotency,
  IDEMPOTENCY_REASONS,
  IdempotentOperation,
  type IdempotentRequest,
} from '@platform/idempotency';
import { MONEY_IDEMPOTENCY_KEY } from '../../idempotency/idempotency.module';
import { LendingApi, RequestLanguage } from '../../common/lending-api';
import { LendingAccess, type PartnerPrincipal } from '../../tenancy/scopes';
import { LoanError as E } from '../loans.errors';
import { GrantPaymentHolidayRequest, RestructureLoanRequest } from './dto/schedule-change.request';
import { ScheduleChangeResponse } from './dto/schedule-change.response';
import { ScheduleChangesService } from './schedule-changes.service';

/** Schedule changes: restructuring and payment holidays (docs/lending/loans.md, "Schedule changes"). */
@LendingApi('Loans')
@Controller('Loans')
export class ScheduleChangesController {
  constructor(private readonly changes: ScheduleChangesService) {}

  @Post('RestructureLoan')
  @HttpCode(200)
  @LendingAccess.Authenticated('partner-key')
  @LendingAccess.RequireScopes('loans:write')
  @IdempotentOperation(MONEY_IDEMPOTENCY_KEY)
  @ApiOperation({
    summary: 'Restructure the loan: a new rate, term or schedule type for what it still owes, from today',
    description:
      'The instalments due after today (and what is past due, unless includeOverdue is false) are replaced by a schedule regenerated from today; the old schedule stays as a version (GetLoanScheduleVersions). Interest accrued and not yet due is carried to the first new instalment, never capitalised. Once per Idempotency-Key.',
  })
  @ApiReasons(
    ...IDEMPOTENCY_REASONS,
    E.NOT_FOUND,
    E.NOT_ACTIVE,
    E.SCHEDULE_CHANGE_INVALID,
    E.TERM_OUT_OF_RANGE,
    E.TERMS_INVALID,
    E.MATH_OVERFLOW,
  )
  @ApiEnvelope(ScheduleChangeResponse)
  restructureLoan(
    @CurrentPrincipal() p: PartnerPrincipal,
    @Idempotency() op: IdempotentRequest,
    @Body() body: RestructureLoanRequest,
    @RequestLanguage() lang: Language,
  ) {
    return this.changes.restructure(p.ownerId, p.keyId, op, body, lang);
  }

  @Post('GrantPaymentHoliday')
  @HttpCode(200)
  @LendingAccess.Authenticated('partner-key')
  @LendingAccess.RequireScopes('loans:write')
  @IdempotentOperation(MONEY_IDEMPOTENCY_KEY)
  @ApiOperation({
    summary: 'Grant a payment holiday: the next instalments pay nothing, every later one moves on',
    description:
      'Interest keeps accruing during the holiday and is due with the first instalment after it (not capitalised); the instalment is recomputed over the same number of paying instalments. The old schedule stays as a version. Once per Idempotency-Key.',
  })
  @ApiReasons(
    ...IDEMPOTENCY_REASONS,
    E.NOT_FOUND,
    E.NOT_ACTIVE,
    E.SCHEDULE_CHANGE_INVALID,
    E.TERMS_INVALID,
    E.MATH_OVERFLOW,
  )
  @ApiEnvelope(ScheduleChangeResponse)
  grantPaymentHoliday(
    @CurrentPrincipal() p: PartnerPrincipal,
    @Idempotency() op: IdempotentRequest,
    @Body() body: GrantPaymentHolidayRequest,
    @RequestLanguage() lang: Language,
  ) {
    return this.changes.grantHoliday(p.ownerId, p.keyId, op, body, lang);
  }
}
