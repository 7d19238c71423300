import { Body, Controller, Post } from '@nestjs/common';
import { ApiOperation } from '@nestjs/swagger';
import { ApiReasons } from '@platform/api-docs';
import { CurrentPrincipal } from '@platform/auth';
import { ApiEnvelope } from '@platform/envelope';
import type { Language } from '@platform/i18n';
import { LendingApi, RequestLanguage } from '../common/lending-api';
import { CustomersError } from '../customers/customers.errors';
import { CreateLoanRequest } from '../loans/dto/loan.request';
import { LoanResponse } from '../loans/dto/loan.response';
import { LoanError as E } from '../loans/loans.errors';
import { LendingAccess, type PartnerPrincipal } from '../tenancy/scopes';
import { LoanOrigination } from './loan-origination.service';

/** `/Loans/CreateLoan`: the contract from an approved application (the route stays in the Loans area). */
@LendingApi('Loans')
@Controller('Loans')
export class LoanOriginationController {
  constructor(private readonly origination: LoanOrigination) {}

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
    CustomersError.NOT_IN_GOOD_STANDING,
    CustomersError.CONSENT_REQUIRED,
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
    return this.origination.create(p.ownerId, p.keyId, body, lang);
  }
}
