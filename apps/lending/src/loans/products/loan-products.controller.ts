import { Body, Controller, Get, HttpCode, Post, Query } from '@nestjs/common';
import { ApiOperation } from '@nestjs/swagger';
import { ApiReasons } from '@platform/api-docs';
import { CurrentPrincipal } from '@platform/auth';
import { ApiEnvelope, list } from '@platform/envelope';
import type { Language } from '@platform/i18n';
import { LendingApi, RequestLanguage } from '../../common/lending-api';
import { LendingAccess, type PartnerPrincipal } from '../../tenancy/scopes';
import { LoanError as E } from '../loans.errors';
import { GetLoanProductsRequest, LoanProductIdQuery } from './dto/get-loan-products.request';
import { CreateLoanProductRequest, UpdateLoanProductRequest } from './dto/loan-product.request';
import { LoanProductResponse } from './dto/loan-product.response';
import { LoanProductsService } from './loan-products.service';

/** Loan products: the limits and terms loans are made on (docs/lending/loans.md, "Products"). */
@LendingApi('Loans')
@Controller('Loans')
export class LoanProductsController {
  constructor(private readonly products: LoanProductsService) {}

  @Post('CreateLoanProduct')
  @LendingAccess.Authenticated('partner-key')
  @LendingAccess.RequireScopes('loans:write')
  @ApiOperation({
    summary: 'Create a loan product',
    description:
      'Currency, amount and term limits, nominal rate, frequency, schedule type, day count, grace periods, origination fee, penalty rate, allocation order and rounding.',
  })
  @ApiReasons(E.PRODUCT_CODE_TAKEN, E.PRODUCT_INVALID)
  @ApiEnvelope(LoanProductResponse, { status: 201 })
  createLoanProduct(
    @CurrentPrincipal() p: PartnerPrincipal,
    @Body() body: CreateLoanProductRequest,
    @RequestLanguage() lang: Language,
  ) {
    return this.products.create(p.ownerId, body, lang);
  }

  @Post('UpdateLoanProduct')
  @HttpCode(200)
  @LendingAccess.Authenticated('partner-key')
  @LendingAccess.RequireScopes('loans:write')
  @ApiOperation({
    summary: 'Change a loan product',
    description:
      'Only the fields sent change, for loans made from then on: a loan keeps the terms it was made on.',
  })
  @ApiReasons(E.PRODUCT_NOT_FOUND, E.PRODUCT_VERSION_CONFLICT, E.PRODUCT_INVALID)
  @ApiEnvelope(LoanProductResponse)
  updateLoanProduct(
    @CurrentPrincipal() p: PartnerPrincipal,
    @Body() body: UpdateLoanProductRequest,
    @RequestLanguage() lang: Language,
  ) {
    return this.products.update(p.ownerId, body, lang);
  }

  @Get('GetLoanProduct')
  @LendingAccess.Authenticated('partner-key')
  @LendingAccess.RequireScopes('loans:read')
  @ApiOperation({ summary: 'One loan product' })
  @ApiReasons(E.PRODUCT_NOT_FOUND)
  @ApiEnvelope(LoanProductResponse)
  getLoanProduct(@CurrentPrincipal() p: PartnerPrincipal, @Query() q: LoanProductIdQuery) {
    return this.products.get(p.ownerId, q.ProductId);
  }

  @Get('GetLoanProducts')
  @LendingAccess.Authenticated('partner-key')
  @LendingAccess.RequireScopes('loans:read')
  @ApiOperation({ summary: 'Paged list of loan products with the total count', description: 'Newest first.' })
  @ApiEnvelope(LoanProductResponse, { list: true })
  async getLoanProducts(@CurrentPrincipal() p: PartnerPrincipal, @Query() q: GetLoanProductsRequest) {
    const { items, total } = await this.products.page(p.ownerId, q);
    return list(items, total);
  }
}
