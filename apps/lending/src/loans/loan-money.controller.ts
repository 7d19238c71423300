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
import { MONEY_IDEMPOTENCY_KEY } from '../idempotency/idempotency.module';
import { LendingApi, RequestLanguage } from '../common/lending-api';
import { LendingAccess, type PartnerPrincipal } from '../tenancy/scopes';
import { DisbursementService } from './disbursement.service';
import { DisbursementResponse, WriteOffResponse } from './dto/ledger.response';
import { DisburseLoanRequest, WriteOffLoanRequest } from './dto/loan.request';
import { LoanError as E } from './loans.errors';
import { CustomersError } from '../customers/customers.errors';
import { WriteOffService } from './write-off.service';

/** The loan's money operations besides payments: paying it out and writing it off (Idempotency-Key). */
@LendingApi('Loans')
@Controller('Loans')
export class LoanMoneyController {
  constructor(
    private readonly disbursements: DisbursementService,
    private readonly writeOffs: WriteOffService,
  ) {}

  @Post('DisburseLoan')
  @HttpCode(200)
  @LendingAccess.Authenticated('partner-key')
  @LendingAccess.RequireScopes('loans:write')
  @IdempotentOperation(MONEY_IDEMPOTENCY_KEY)
  @ApiOperation({
    summary: 'Pay the loan out: generate and store its schedule, post the disbursement; created -> active',
    description:
      'Posts principal out of cash and the origination fee charged, in one balanced ledger transaction. Once per Idempotency-Key: a repeat answers the first answer.',
  })
  @ApiReasons(
    ...IDEMPOTENCY_REASONS,
    E.NOT_FOUND,
    E.TRANSITION_NOT_ALLOWED,
    E.VALUE_DATE_OUT_OF_RANGE,
    E.TERMS_INVALID,
    E.MATH_OVERFLOW,
    CustomersError.NOT_IN_GOOD_STANDING,
    CustomersError.CONSENT_REQUIRED,
  )
  @ApiEnvelope(DisbursementResponse)
  disburseLoan(
    @CurrentPrincipal() p: PartnerPrincipal,
    @Idempotency() op: IdempotentRequest,
    @Body() body: DisburseLoanRequest,
    @RequestLanguage() lang: Language,
  ) {
    return this.disbursements.disburse(p.ownerId, p.keyId, op, body, lang);
  }

  @Post('WriteOffLoan')
  @HttpCode(200)
  @LendingAccess.Authenticated('partner-key')
  @LendingAccess.RequireScopes('loans:write')
  @IdempotentOperation(MONEY_IDEMPOTENCY_KEY)
  @ApiOperation({
    summary: 'Write the loan off: what the borrower owes moves to credit losses; active -> written_off',
    description: 'Once per Idempotency-Key.',
  })
  @ApiReasons(...IDEMPOTENCY_REASONS, E.NOT_FOUND, E.TRANSITION_NOT_ALLOWED, E.MATH_OVERFLOW)
  @ApiEnvelope(WriteOffResponse)
  writeOffLoan(
    @CurrentPrincipal() p: PartnerPrincipal,
    @Idempotency() op: IdempotentRequest,
    @Body() body: WriteOffLoanRequest,
    @RequestLanguage() lang: Language,
  ) {
    return this.writeOffs.writeOff(p.ownerId, p.keyId, op, body, lang);
  }
}
