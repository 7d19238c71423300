import { Body, Controller, Get, HttpCode, Post, Query } from '@nestjs/common';
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
import { MakePaymentRequest, PreviewPaymentRequest, ReversePaymentRequest } from '../dto/payment.request';
import { PaymentResponse, ReversalResponse } from '../dto/payment.response';
import { LoanError as E } from '../loans.errors';
import { PaymentsService } from './payments.service';
import { ReversalsService } from './reversals.service';

/** Payments: book one, preview one, reverse one (docs/lending/loans.md, "Payments"). */
@LendingApi('Loans')
@Controller('Loans')
export class PaymentsController {
  constructor(
    private readonly payments: PaymentsService,
    private readonly reversals: ReversalsService,
  ) {}

  @Post('MakePayment')
  @HttpCode(200)
  @LendingAccess.Authenticated('partner-key')
  @LendingAccess.RequireScopes('loans:write')
  @IdempotentOperation(MONEY_IDEMPOTENCY_KEY)
  @ApiOperation({
    summary: 'Book a payment: allocated across the debt components in the loan’s order',
    description:
      "Answers each component's share and the rule that produced it. `mode` reduceTerm or reduceInstalment makes it an early repayment that regenerates the remaining schedule (or closes the loan). Once per Idempotency-Key: concurrent or later repeats answer the first answer and book nothing.",
  })
  @ApiReasons(...IDEMPOTENCY_REASONS, E.NOT_FOUND, E.NOT_ACTIVE, E.VALUE_DATE_OUT_OF_RANGE, E.MATH_OVERFLOW)
  @ApiEnvelope(PaymentResponse)
  makePayment(
    @CurrentPrincipal() p: PartnerPrincipal,
    @Idempotency() op: IdempotentRequest,
    @Body() body: MakePaymentRequest,
    @RequestLanguage() lang: Language,
  ) {
    return this.payments.make(p.ownerId, p.keyId, op, body, lang);
  }

  @Get('PreviewPayment')
  @LendingAccess.Authenticated('partner-key')
  @LendingAccess.RequireScopes('loans:read')
  @ApiOperation({
    summary: 'What a payment would do, without booking it',
    description: 'The same allocation, rule and balances MakePayment would answer; nothing is written.',
  })
  @ApiReasons(E.NOT_FOUND, E.NOT_ACTIVE, E.VALUE_DATE_OUT_OF_RANGE, E.MATH_OVERFLOW)
  @ApiEnvelope(PaymentResponse)
  previewPayment(
    @CurrentPrincipal() p: PartnerPrincipal,
    @Query() q: PreviewPaymentRequest,
    @RequestLanguage() lang: Language,
  ) {
    return this.payments.preview(p.ownerId, q, lang);
  }

  @Post('ReversePayment')
  @HttpCode(200)
  @LendingAccess.Authenticated('partner-key')
  @LendingAccess.RequireScopes('loans:write')
  @IdempotentOperation(MONEY_IDEMPOTENCY_KEY)
  @ApiOperation({
    summary: 'Reverse a payment: post its mirror transaction, so the balances are what they were before it',
    description:
      'Only the loan’s latest transaction, and only a payment. A schedule the payment regenerated is restored; a loan it closed is active again. Once per Idempotency-Key.',
  })
  @ApiReasons(
    ...IDEMPOTENCY_REASONS,
    E.NOT_FOUND,
    E.TRANSACTION_NOT_FOUND,
    E.TRANSACTION_NOT_REVERSIBLE,
    E.TRANSACTION_ALREADY_REVERSED,
    E.TRANSACTION_NOT_LATEST,
    E.MATH_OVERFLOW,
  )
  @ApiEnvelope(ReversalResponse)
  reversePayment(
    @CurrentPrincipal() p: PartnerPrincipal,
    @Idempotency() op: IdempotentRequest,
    @Body() body: ReversePaymentRequest,
    @RequestLanguage() lang: Language,
  ) {
    return this.reversals.reverse(p.ownerId, p.keyId, op, body, lang);
  }
}
